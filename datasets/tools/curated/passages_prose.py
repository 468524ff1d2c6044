"""Everyday documents: emails, notes, tables, reviews, policies, letters. Written for this project.

Same shape as passages_code.py.
"""

PASSAGES = [
    dict(
        id="email-complaint",
        fence=None,
        text='''Subject: Order #48213 - third time asking

Hello,

I ordered a standing desk (model Ergo 160, oak top) on 2 March and paid 649 EUR including
delivery. The confirmation said delivery within 10 working days. It is now 11 April.

On 20 March I was told the desk was "in transit". On 28 March your colleague Tomas said on the
phone that the frame had been damaged in the warehouse and a replacement would be sent "this
week". Nothing came. I emailed on 3 April and 7 April and got no answer to either.

I work from home and bought this desk on my physiotherapist's advice. I have been working at the
kitchen table for five weeks.

I would like one of two things by Friday: a confirmed delivery date within the next seven days,
or a full refund including delivery. If I do not hear from you I will file a chargeback with my
card issuer and leave a review describing my experience.

Regards,
Ingrid Solberg
''',
        tasks=[
            ("I work in customer service for this furniture shop. Draft a reply to this customer that apologises properly, takes responsibility, and offers both options she asked for.", 450),
            ("Classify this email: sentiment, urgency (1-5), category, and whether it needs escalation. Reply as JSON.", 100),
            ("What went wrong in our process, judging from this email? List the failures.", 300),
            ("Summarise the customer's situation and demands in two sentences for the ticket.", 80),
            ("Write a short internal note to the warehouse manager asking what happened to this order.", 200),
        ],
    ),
    dict(
        id="email-vendor-thread",
        fence=None,
        text='''From: Priya Natarajan <priya@northwind-retail.example>
To: Daniel Brooks <daniel@brightpath-dev.example>
Date: Mon 9 Sep, 08:14
Subject: RE: RE: Loyalty app - phase 2 timeline

Daniel,

I need to be direct. We agreed in June that phase 2 (points redemption in store, digital
receipts) would be in user testing by 1 October. Your update on Friday moves it to 11 November,
which is after our holiday campaign starts on 1 November. Marketing has already printed material
that mentions in-store redemption. I need to understand how we got here and what options we have.

Priya

---

From: Daniel Brooks
Date: Fri 6 Sep, 17:52

Hi Priya,

Quick update on phase 2. The POS integration has turned out to be more complex than scoped.
Your POS vendor's API does not support partial tender with loyalty points in the version
installed in your stores (v7.2); it was added in v8. We have built a workaround that voids and
re-rings the transaction, but your store operations team rejected it in the demo on Wednesday
because it doubles the time at the till.

The options we see:
1. Wait for your stores to upgrade to POS v8 (your IT team says late October at the earliest),
   then integrate properly. New date for user testing: 11 November.
2. Ship digital receipts on the original date and redemption later.
3. Redemption via a one-time discount code shown in the app and scanned at the till. Works on
   v7.2 but customers can only redeem whole vouchers (e.g. 5 EUR steps), not arbitrary points.

We recommend 1. Our team has also lost two weeks to the change in the receipt format requested
in July, which we absorbed without a change request.

Best,
Daniel

---

From: Priya Natarajan
Date: Mon 2 Sep, 10:03

Hi Daniel, can you send a status update for phase 2 before Friday's steering meeting? Thanks, P.
''',
        tasks=[
            ("I'm Daniel. Help me write a reply to Priya's last email that takes her concern seriously, explains the situation without sounding defensive, and proposes a way forward.", 600),
            ("Read this email thread and summarise the conflict, each side's position, and the options on the table.", 400),
            ("If you were Priya, which of Daniel's three options would you choose given the holiday campaign, and why?", 450),
            ("What should Daniel have done differently earlier in this project? Three points.", 300),
            ("Draft the agenda for a 30-minute call between Priya, Daniel and the POS IT lead to resolve this.", 300),
        ],
    ),
    dict(
        id="meeting-notes-planning",
        fence=None,
        text='''Q3 planning - mobile team - notes (raw)

Attendees: Sara (PM), Jonas (eng lead), Mei (design), Ravi (iOS), Lucia (Android), Tom (QA)
Absent: data team (sent numbers by email)

- Sara: retention dropped from 41% to 36% day-30 since March. Data team thinks onboarding,
  people who skip the tutorial churn at 2x. Also app store rating down to 3.9 from 4.3, mostly
  complaints about login issues after the SSO change + slow startup on older Android.
- Jonas: startup time on Android mid-range devices is 4.8s cold, target should be <2s. Known
  causes: we init the analytics SDK, the feature-flag SDK and the crash reporter on the main thread
  + the home feed does 3 network calls before first render. Estimate 3-4 weeks for Lucia + 1.
- Mei: new onboarding design ready, 3 screens instead of 7, can skip but comes back later as
  cards in the feed. Tested with 8 users, 7 finished it. Wants A/B test.
- Ravi: SSO login bug on iOS = token refresh race when app resumes from background, fix is
  small (2-3 days) but needs backend change to allow refresh token reuse for 30s. Backend team
  said maybe next sprint.
- Tom: regression suite takes 2 days manual, that's why releases are every 3 weeks. Wants 2
  sprints to automate top 40 flows. Nobody disagreed but nobody committed either.
- Discussion: Sara wants onboarding first (biggest retention lever per data). Jonas argues
  startup + login first because they hit everyone and drive ratings. Agreed ratings matter for
  acquisition. Mei worried that doing onboarding A/B while startup is slow will muddy results.
- Lucia: can't do startup AND the Android part of onboarding in the same sprint.
- Decision (tentative): sprint 1 = login fix (Ravi) + startup work starts (Lucia + Jonas),
  sprint 2-3 = onboarding A/B (all), Tom automation "in parallel where possible"?? -> unclear
- Sara to confirm with backend team about refresh token change by Thursday.
- Open: who owns the feature-flag SDK migration? nobody knows. Jonas to ask platform.
- Next meeting: Tuesday, bring estimates for onboarding.
''',
        tasks=[
            ("Turn these raw meeting notes into a clean summary with decisions, action items (owner, due date if known) and open questions.", 600),
            ("Write the follow-up email Sara should send to the team after this meeting.", 450),
            ("What risks do you see in the tentative plan? Be specific.", 450),
            ("Tom's automation request got no commitment. Write a short proposal he could bring to the next meeting to get it prioritised.", 500),
            ("List the action items only, as a checklist.", 150),
        ],
    ),
    dict(
        id="table-quarterly-sales",
        fence="",
        text='''region,quarter,units,revenue_eur,returns,marketing_spend_eur,new_customers
North,2023-Q1,12040,1806000,602,210000,3120
North,2023-Q2,13115,1967250,590,230000,3390
North,2023-Q3,11870,1780500,712,240000,2950
North,2023-Q4,16220,2433000,1135,390000,4710
South,2023-Q1,8410,1177400,336,150000,2410
South,2023-Q2,9020,1262800,361,150000,2530
South,2023-Q3,9960,1394400,398,160000,2890
South,2023-Q4,12010,1681400,600,210000,3300
East,2023-Q1,5230,836800,418,190000,1980
East,2023-Q2,5010,801600,451,260000,1760
East,2023-Q3,4870,779200,487,300000,1590
East,2023-Q4,6120,979200,673,340000,2040
West,2023-Q1,10150,1522500,406,180000,2650
West,2023-Q2,10640,1596000,426,180000,2720
West,2023-Q3,11020,1653000,441,170000,2810
West,2023-Q4,13980,2097000,699,250000,3650
''',
        tasks=[
            ("Here's our 2023 sales data by region. What are the three most important things it tells you? Show the numbers behind each.", 600),
            ("Compute, for each region, full-year revenue, return rate and marketing cost per new customer. Present a table.", 500),
            ("The East region looks like a problem. Analyse it and suggest what management should ask the regional team.", 500),
            ("Write the Python (pandas) code to load this CSV and produce a chart of revenue by quarter with one line per region.", 400),
            ("Is Q4 growth in the North real growth or just seasonality? What extra data would you need to answer properly?", 400),
        ],
    ),
    dict(
        id="table-ab-test",
        fence="",
        text='''Experiment: checkout button copy ("Buy now" vs "Continue to payment")
Duration: 14 days, 50/50 split, users randomised at first visit

variant   visitors   checkouts_started   orders   revenue_eur   avg_order_eur
A (Buy)    48,210         6,412           2,981     178,860          60.00
B (Cont)   48,093         6,890           3,027     179,600          59.33

Segment breakdown (orders / visitors):
            mobile            desktop
A       1,544 / 31,020    1,437 / 17,190
B       1,652 / 30,880    1,375 / 17,213
''',
        tasks=[
            ("Did variant B win this A/B test? Do the statistics properly (conversion rate, confidence interval or p-value) and explain your conclusion.", 700),
            ("The desktop and mobile segments point in different directions. How should we interpret that, and should we ship different copy per device?", 500),
            ("In one sentence: what should the product team do next?", 60),
            ("Write the results section of the experiment report for the wiki, including a short table.", 500),
        ],
    ),
    dict(
        id="job-description",
        fence=None,
        text='''Senior Data Engineer (m/f/d) - Logistics Analytics - Hamburg or remote (EU)

About us
We run route planning and warehouse software for 1,200 mid-sized logistics companies. Our
platform processes about 4 billion GPS and scanner events a month.

What you will do
- Own the pipelines that turn raw telemetry into the datasets behind our ETA predictions and
  customer dashboards (Kafka, Spark, Delta Lake on AWS).
- Cut our nightly batch from 5 hours to under 1, and move the most important tables to
  near-real-time.
- Work with two data scientists and the dashboard team to define data contracts and quality
  checks.
- Be on call one week in six (compensated).

What you bring
- 5+ years building production data pipelines; strong Python or Scala, and SQL.
- Experience with Spark performance tuning and a streaming system (Kafka, Kinesis or similar).
- You care about tests, monitoring and documentation, and can explain trade-offs to
  non-engineers.
- Nice to have: Terraform, dbt, experience with geospatial data.

What we offer
- 78,000-95,000 EUR depending on experience, plus an annual bonus of up to 10%.
- 30 days of holiday, four-day office weeks optional, 2,000 EUR yearly learning budget.
- A team of 14 engineers who review each other's code kindly.
''',
        tasks=[
            ("I want to apply for this job. Based on the posting, what will they most likely ask in the technical interview? Give me ten questions and what a strong answer covers.", 1000),
            ("Write a cover letter for this job for a candidate with 6 years at an e-commerce company, mostly batch Spark on EMR and some Kafka, no geospatial experience.", 600),
            ("Rewrite this job posting to be more inclusive and easier to scan, without losing information.", 600),
            ("What questions should a candidate ask the hiring manager about this role? Give six good ones.", 300),
            ("Is the salary range competitive for Hamburg? Give a cautious, reasoned answer.", 250),
        ],
    ),
    dict(
        id="resume",
        fence=None,
        text='''ALEX MORGAN
alex.morgan@example.com | Leeds, UK

PROFILE
Hard-working and motivated professional with experience in many areas of customer service and
operations, looking for a new challenge in a dynamic company where I can grow.

EXPERIENCE
Operations Coordinator, Harrow & Dale Logistics, 2021 - present
- Responsible for scheduling of drivers
- Worked with the warehouse team on various improvements
- Handled customer complaints
- Used Excel a lot, made a dashboard for the manager
- Trained new staff

Customer Service Advisor, TeleConnect, 2018 - 2021
- Answered calls from customers (around 60 per day)
- Resolved issues with billing
- Was employee of the month twice
- Helped with the move to a new CRM system

Retail Assistant, various shops, 2015 - 2018

EDUCATION
BA (Hons) History, University of Sheffield, 2015 (2:1)

SKILLS
Excel (advanced), Microsoft Office, communication, teamwork, problem solving, time management,
Salesforce, some SQL
''',
        tasks=[
            ("Improve this CV for applications to junior data analyst roles. Rewrite it with stronger, measurable bullet points; mark where I need to fill in real numbers.", 800),
            ("Give me blunt feedback on this CV in bullet points: what a recruiter would think in the first 30 seconds.", 400),
            ("Write a three-sentence professional summary for this person aimed at operations manager roles.", 120),
            ("What should this person learn in the next three months to move into data analysis, given their background? Make a week-by-week plan.", 900),
        ],
    ),
    dict(
        id="product-reviews",
        fence=None,
        text='''Reviews for: AeroBrew 2 pour-over coffee maker (average 3.6 stars, 214 reviews)

*****  "Best coffee I've made at home"  - Marta K.
The temperature control is spot on and the bloom setting makes a real difference. Takes 4
minutes for two cups. Glass carafe is thin, so be careful.

**  "Leaks from the bottom after 3 months"  - J. Ortega
Loved it at first. Then it started leaking from the base. Support asked me for a video, then
stopped answering. For 189 dollars I expected better.

****  "Great coffee, annoying app"  - Sam
Coffee is excellent. You need the app for anything beyond the two presets and it logs you out
every few days. Please just add more buttons.

*  "Carafe cracked on day two"  - Helen W.
Thermal shock I guess? I rinsed it with cold water while it was hot. It should survive that.

*****  "Quiet and pretty"  - Deepak
Looks great on the counter and it's much quieter than my old drip machine. Descaling reminder is
useful.

***  "Good but slow"  - Frida L.
Four minutes for two cups is fine, but eight minutes for a full carafe in the morning is too
long. Coffee quality is 5 stars, speed 2 stars.

**  "Wifi setup nightmare"  - Paul R.
Took an hour to connect to my 2.4 GHz network, 5 GHz not supported. The instructions don't
mention this.

****  "Worth it with a good grinder"  - Ana
If you use pre-ground coffee you won't notice much difference. With fresh beans it's the best
machine under 200 I've tried.
''',
        tasks=[
            ("Analyse these product reviews for our product team: main themes, how often each comes up, and which issues are most urgent.", 600),
            ("Write a public reply from the manufacturer to J. Ortega's review.", 200),
            ("Based on these reviews, would you recommend this machine to someone who drinks one cup a day and hates apps? Short answer.", 150),
            ("Turn the complaints into user stories for the next hardware and software revision.", 500),
            ("Write a balanced 150-word summary of these reviews for a comparison website.", 250),
        ],
    ),
    dict(
        id="remote-policy",
        fence=None,
        text='''Remote and Hybrid Work Policy (version 3, effective 1 January)

1. Purpose. This policy sets out how employees may work away from our offices while keeping
   collaboration, security and wellbeing strong.

2. Eligibility. All permanent employees who have completed their probation period may work
   remotely up to three days per week, subject to the needs of their role. Roles that require
   physical presence (reception, facilities, laboratory staff) are excluded. New joiners work from
   the office at least four days a week during probation to support onboarding.

3. Core days. Each team agrees two core days per week when all members are in the office. Team
   leads publish core days on the intranet. Changes require two weeks' notice.

4. Working from abroad. Employees may work from another country for up to 20 working days per
   calendar year, with their manager's approval and HR's confirmation that no tax or immigration
   issue arises. Requests must be made at least 15 working days in advance. Working from a
   country under sanctions is never allowed.

5. Equipment. The company provides a laptop, monitor, keyboard and headset. Employees may claim
   up to 300 EUR once every three years for an office chair or desk. Equipment remains company
   property and must be returned when employment ends.

6. Security. Confidential information may only be accessed on company devices over the
   company VPN. Printing confidential documents at home is not allowed. Video calls on
   confidential matters should be taken where others cannot overhear.

7. Availability. Employees are expected to be reachable during core hours (10:00-15:00 local
   office time) and to keep their calendar up to date. Outside working hours there is no
   expectation to read or answer messages, except for those on an on-call rota.

8. Health and safety. Employees complete the home workstation self-assessment once a year. The
   company reimburses eye tests for screen users.

9. Costs. Remote work is voluntary; the company does not reimburse home energy or internet costs,
   except where local law requires it.

10. Review. Managers may withdraw remote working for an individual, with written reasons and
    four weeks' notice, if performance or collaboration suffers. The employee may appeal to HR.
''',
        tasks=[
            ("Summarise this policy as an FAQ for employees: ten questions and short answers.", 700),
            ("I want to spend three weeks working from my parents' home in Portugal in July. According to this policy, can I, and what do I need to do?", 250),
            ("As an employee representative, which parts of this policy would you push back on and why?", 500),
            ("Find ambiguities in this policy that are likely to cause disputes, and suggest clearer wording.", 600),
            ("Write a friendly announcement email introducing version 3 of this policy to staff.", 350),
        ],
    ),
    dict(
        id="api-docs",
        fence=None,
        text='''Parcel Tracking API v1 - Reference (excerpt)

Authentication: every request needs the header `Authorization: Bearer <api key>`. Keys are
created in the dashboard and can be restricted to read-only.

Rate limits: 600 requests per minute per key. Exceeding it returns HTTP 429 with a
`Retry-After` header in seconds.

POST /v1/shipments
Create a shipment. Body (JSON):
  carrier        string, required. One of "dhl", "ups", "postnl", "gls".
  tracking_code  string, required. 6-40 characters.
  reference      string, optional. Your own order id, max 64 characters.
  notify_email   string, optional. Customer email for status notifications.
Returns 201 with the shipment object. Returns 409 if the same carrier and tracking code already
exist for your account; the body then contains the existing shipment's id.

GET /v1/shipments/{id}
Returns the shipment object:
  id, carrier, tracking_code, reference, status, eta, events[], created_at
status is one of: "pending", "in_transit", "out_for_delivery", "delivered", "exception",
"returned". eta is an ISO 8601 date or null. events is a list of
{ "time": ISO 8601 timestamp, "location": string, "description": string }, newest first.

GET /v1/shipments?status=&reference=&cursor=&limit=
List shipments, newest first. limit is 1-100 (default 20). The response contains `data` and
`next_cursor`; pass next_cursor as cursor to get the next page. next_cursor is null on the last
page.

DELETE /v1/shipments/{id}
Stops tracking. Returns 204. Deleted shipments are kept for 30 days and are not returned by the
list endpoint.

Webhooks: configure a URL in the dashboard. We POST the shipment object whenever its status
changes, with header `X-Signature: sha256=<hex>`, an HMAC-SHA256 of the raw body with your
webhook secret. We retry failed deliveries (non-2xx or timeout after 10 s) up to 8 times over
24 hours with exponential backoff.
''',
        tasks=[
            ("Using this API documentation, write a Python client class with methods for create, get, list (iterating over all pages) and delete, handling 429 with Retry-After.", 1200),
            ("Write a Flask endpoint that receives these webhooks and verifies the signature correctly (constant-time comparison, raw body).", 600),
            ("What's missing or unclear in this API reference from a developer's point of view? List improvements.", 500),
            ("Show a curl command that creates a shipment for DHL tracking code JJD0099887766 with reference ORDER-1042.", 120),
            ("How should my integration handle the 409 response so that retries are safe? Explain in a few sentences.", 200),
            ("Write a Node.js script that lists all shipments with status \"exception\" and prints their reference and latest event.", 600),
        ],
    ),
    dict(
        id="recipe",
        fence=None,
        text='''Grandma's lentil soup (serves 4)

Ingredients
- 250 g brown lentils, rinsed
- 1 large onion, 2 carrots, 2 celery sticks, all diced
- 3 cloves garlic
- 2 tbsp olive oil
- 1 tin (400 g) chopped tomatoes
- 1.5 litres vegetable stock
- 1 tsp ground cumin, 1 tsp smoked paprika, 2 bay leaves
- 1 lemon
- salt, pepper, a handful of parsley

Method
1. Heat the oil in a large pot, add onion, carrot and celery and cook gently for 10 minutes
   until soft.
2. Add garlic and spices, stir for one minute.
3. Add lentils, tomatoes, stock and bay leaves. Bring to the boil, then simmer with the lid
   half on for 35-40 minutes, until the lentils are very soft.
4. Remove bay leaves. Blend about a third of the soup and stir it back in.
5. Season with salt, pepper and the juice of half the lemon. Serve with parsley and lemon wedges.
''',
        tasks=[
            ("Scale this recipe for 10 people and give me a shopping list grouped by supermarket section.", 400),
            ("Can I make this in a pressure cooker? Adapt the method and timings.", 300),
            ("Estimate the calories and protein per serving. Show your working roughly.", 300),
            ("Make this soup more filling for a vegan athlete without changing its character. Suggest changes.", 300),
            ("Translate this recipe into Spanish.", 600),
        ],
    ),
    dict(
        id="travel-itinerary",
        fence=None,
        text='''Japan trip - draft plan (2 adults, late March, 12 nights)

Day 1  Arrive Tokyo Haneda 06:40. Hotel in Shinjuku. Walk around, Shinjuku Gyoen if open.
Day 2  Tokyo: Asakusa, Senso-ji, Skytree, evening in Shibuya.
Day 3  Tokyo: teamLab, Odaiba, Ginza.
Day 4  Day trip to Nikko (2 hours each way).
Day 5  Tokyo: Harajuku, Meiji Shrine, Yoyogi park. Night bus to Kyoto?
Day 6  Kyoto: Fushimi Inari early, Kiyomizu-dera, Gion in the evening.
Day 7  Kyoto: Arashiyama bamboo, monkey park, Kinkaku-ji.
Day 8  Day trip to Nara.
Day 9  Day trip to Hiroshima and Miyajima (from Kyoto).
Day 10 Osaka: Dotonbori, castle.
Day 11 Osaka: Universal Studios?
Day 12 Back to Tokyo, shopping.
Day 13 Fly home from Haneda 11:20.

Budget: about 5,000 EUR excluding flights. We like food, temples and walking, not big crowds.
We don't want to change hotels more than three times.
''',
        tasks=[
            ("Critique this Japan itinerary. Is it too packed? Suggest a revised plan that respects our preferences.", 900),
            ("Should we buy a Japan Rail Pass for this itinerary? Reason it through.", 400),
            ("Late March is cherry blossom season. What should we book now, and what can wait?", 350),
            ("Suggest where to base ourselves so we change hotels at most three times, with reasons.", 300),
        ],
    ),
    dict(
        id="personal-statement",
        fence=None,
        text='''I have always been passionate about medicine. Ever since I was young I have wanted to help
people and make a difference in the world. When my grandfather was ill with heart disease I saw
how the doctors cared for him and I knew that this was what I wanted to do.

At school I have worked hard in biology and chemistry and I enjoy learning how the human body
works. I am predicted A*AA. I am also a member of the debating society which has improved my
communication skills, and I play football for the school team which shows I can work in a team.

Last summer I did two weeks of work experience at my local hospital. I shadowed doctors on a
cardiology ward. It was very interesting and I learned a lot. I saw a doctor tell a patient some
bad news and it showed me how important empathy is. I also volunteer at a care home every
Saturday, where I help residents at lunch and talk to them. One resident, who has dementia,
often does not remember me, but she always enjoys the conversation, and I have learned to be
patient and to listen.

I have read books such as "Being Mortal" which made me think about the end of life and how
medicine is not only about curing people.

I believe I have the qualities needed to become a good doctor: I am hard-working, caring and a
good communicator. I would be very grateful for the opportunity to study medicine at your
university.
''',
        tasks=[
            ("This is my draft personal statement for medical school in the UK. Give me detailed, honest feedback.", 800),
            ("Rewrite the care home paragraph to show reflection rather than just describing what I did.", 350),
            ("Which sentences in this statement are clichés admissions tutors are tired of? Quote them and suggest what to do instead.", 450),
            ("Give me five questions an interviewer might ask based on this statement.", 250),
        ],
    ),
    dict(
        id="support-chat",
        fence=None,
        text='''[10:02] Customer: hi my internet keeps dropping every evening
[10:02] Agent (Bot): Hi! I'm sorry to hear that. Have you tried restarting your router?
[10:03] Customer: yes many times
[10:03] Agent (Bot): Let me connect you with a specialist.
[10:09] Agent (Kim): Hi, I'm Kim. I can see your line. Can you tell me when the drops happen?
[10:10] Customer: most evenings between 7 and 11, it goes for like 30 seconds and comes back.
                  sometimes 10 times in an evening. daytime fine
[10:11] Agent (Kim): Thanks. Are you on wifi or cable when it happens?
[10:11] Customer: both, the tv on cable drops too
[10:13] Agent (Kim): I see 47 resyncs on your line in the last 7 days, all between 18:50 and
                    23:20. Signal-to-noise margin drops to 2 dB at those times.
[10:13] Customer: what does that mean
[10:14] Agent (Kim): It means there's interference on the line in the evening. It can be
                    something in your home or on the line outside.
[10:15] Customer: ok so what do we do. i work from home on calls in the evening w/ US clients
[10:16] Agent (Kim): First, please check if any devices switch on around 7pm, like lights with
                    a dimmer, a heater or a TV. Also, is the router plugged into the main
                    socket or an extension?
[10:17] Customer: extension cable in the living room, the main socket is in the hall
[10:18] Agent (Kim): Please try connecting the router directly to the main socket in the hall
                    for a few evenings. If drops continue, we'll send an engineer.
[10:18] Customer: and if it's your line? who pays for the engineer
[10:19] Agent (Kim): If the fault is on our side there's no charge. If it's inside your home
                    there may be a 75 EUR fee.
[10:20] Customer: ok. bit annoying. ill try
[10:20] Agent (Kim): Thanks! I've added notes to your account. Have a nice day.
''',
        tasks=[
            ("Evaluate how well the agent handled this support chat. What went well and what could be better?", 500),
            ("Summarise this chat for the ticket system: problem, diagnostics, advice given, next step.", 150),
            ("As the customer, what else could I check at home to find the source of the interference? Give a practical list.", 400),
            ("Write the follow-up message the agent should send the customer in two days.", 150),
            ("Explain what 'signal-to-noise margin drops to 2 dB' means in simple terms.", 200),
        ],
    ),
    dict(
        id="smallbiz-pnl",
        fence=None,
        text='''Corner Cafe - profit and loss, last 12 months (EUR)

Revenue
  Coffee and drinks        186,400
  Food                     122,900
  Retail (beans, mugs)      14,300
  Catering orders           21,800
  Total revenue            345,400

Cost of goods sold
  Coffee, milk, drinks      41,200
  Food ingredients          49,700
  Retail stock               8,900
  Total COGS                99,800

Operating expenses
  Staff wages and taxes    142,600
  Rent                      48,000
  Utilities                 13,900
  Card fees                  6,100
  Delivery app commissions  11,400   (delivery revenue 38,000, included in food and drinks)
  Equipment lease            7,200
  Marketing                  2,400
  Insurance, accounting      6,800
  Repairs                    4,300
  Total opex               242,700

Net profit before tax        2,900

Notes from owner: we are busy all day but end up with almost nothing. Staff costs went up 11%
this year. Considering raising prices by 10%, dropping delivery apps, or closing Mondays
(Monday revenue is about 9% of the week).
''',
        tasks=[
            ("I own this cafe. Look at my numbers and tell me where the money goes and which of my three ideas would help most. Show rough calculations.", 800),
            ("Is the delivery app business worth keeping? Estimate its contribution using these figures and state your assumptions.", 450),
            ("Calculate gross margin for each revenue line where possible and comment on them.", 400),
            ("What questions would an accountant ask after seeing this P&L?", 300),
        ],
    ),
    dict(
        id="press-release",
        fence=None,
        text='''FOR IMMEDIATE RELEASE

Riverside Community Library Launches "Library of Things" Lending Service

Riverside, 4 March - Starting 1 April, members of Riverside Community Library will be able to
borrow more than 300 household items in addition to books, including power drills, sewing
machines, camping gear, board games, a projector, a pressure washer and musical instruments.

The "Library of Things" is funded by a 45,000 EUR grant from the Riverside Sustainability Fund
and by donations from local residents, who contributed 120 of the items. Items can be borrowed
for up to one week, free of charge for members. Membership remains free for all residents.

"Most drills are used for only a few minutes in their entire life," said head librarian Grace
Obi. "Sharing them saves money, saves space in people's homes and keeps tons of products out of
landfill. It's exactly what libraries have always done, just with different objects."

Volunteers from the Riverside Repair Cafe will check every item when it is returned and run
monthly workshops on basic repairs. A catalogue of all items with photos is available on the
library website, where members can reserve items online.

The launch event on 1 April, 10:00-14:00, includes demonstrations, a repair workshop and a
children's board game corner.

Contact: Martin Field, communications, press@riverside-library.example, +44 20 7946 0321
''',
        tasks=[
            ("Turn this press release into three social media posts: one for Instagram, one for X, one for a neighbourhood Facebook group.", 400),
            ("Write a short local news article based on this press release, with a neutral tone and a headline.", 450),
            ("What questions might a journalist ask the library about this service? List eight, including tough ones.", 300),
            ("Rewrite the press release for a children's newsletter, in simple language.", 350),
        ],
    ),
    dict(
        id="lease-clauses",
        fence=None,
        text='''RESIDENTIAL TENANCY AGREEMENT - SELECTED CLAUSES

4. Rent. The Tenant shall pay rent of 1,450 per calendar month in advance on the first day of
each month by bank transfer. The Landlord may review the rent once every twelve months by giving
the Tenant at least two months' written notice. Any increase shall not exceed the rise in the
consumer price index over the preceding twelve months plus two percentage points.

5. Deposit. The Tenant has paid a deposit of 2,900, held in a government-approved deposit
scheme. The deposit will be returned within 14 days of the end of the tenancy, less any
reasonable deductions for unpaid rent, damage beyond fair wear and tear, or cleaning required to
return the Property to the condition recorded in the inventory.

7. Repairs. The Landlord is responsible for repairs to the structure and exterior, heating and
hot water, and installations for the supply of water, gas and electricity. The Tenant shall
report any disrepair promptly in writing and allow access for repairs on 24 hours' notice, except
in emergencies. The Tenant is responsible for replacing light bulbs and batteries in smoke
alarms, and for damage caused by the Tenant or visitors.

9. Alterations and decoration. The Tenant shall not make alterations to the Property without the
Landlord's written consent, which shall not be unreasonably withheld for minor alterations such
as hanging pictures. The Tenant may not paint walls without consent.

11. Pets. No pets are allowed without the Landlord's written consent. Where consent is given, the
Tenant shall have carpets professionally cleaned at the end of the tenancy.

13. Ending the tenancy. The fixed term is twelve months. After the fixed term the tenancy
continues month to month. The Tenant may end it by giving one month's written notice; the
Landlord may end it by giving two months' written notice in accordance with the law. A break
clause allows either party to end the tenancy after six months by giving two months' notice.

15. Subletting. The Tenant shall not sublet or assign the whole or any part of the Property, or
take in lodgers, without the Landlord's written consent.
''',
        tasks=[
            ("My boiler has been broken for five days and my landlord isn't replying. What does this lease say about it and what should I do? I'm not asking for formal legal advice, just a practical reading.", 450),
            ("Explain clause 13 with a concrete example: if I signed on 1 March, what is the earliest date I could leave using the break clause?", 250),
            ("Can my landlord raise the rent by 10% next year under clause 4 if inflation was 4%? Show the reasoning.", 150),
            ("Draft a polite but firm letter to the landlord asking for consent to keep a cat, addressing clause 11.", 350),
            ("Summarise my obligations as the tenant under these clauses in a bullet list.", 300),
        ],
    ),
    dict(
        id="poem",
        fence=None,
        text='''Commute

The train exhales at Halden Road,
a hundred coats step out as one,
each carrying a private load
of things half said and things undone.

The woman with the yellow scarf
has read the same page since the bridge;
the boy beside her tries to laugh
at something on a phone. A ridge

of cloud is lifting over town.
Somebody's coffee, somebody's cough.
The doors stay open. Then the sound,
the lurch, the quiet. We are off.
''',
        tasks=[
            ("Analyse this poem: form, rhyme scheme, imagery, and what it is about.", 500),
            ("Write a companion poem in the same form about the commute home in the evening.", 250),
            ("Is there anything weak in this poem you'd revise? Be a tough but fair editor.", 350),
            ("Translate this poem into French, keeping the rhyme if you can.", 350),
        ],
    ),
    dict(
        id="physio-leaflet",
        fence=None,
        text='''Knee exercises after a minor knee injury - patient information

These exercises help you regain movement and strength after a sprain or bruise to the knee.
Start them once your physiotherapist or doctor says it is safe, usually a few days after the
injury. Some discomfort is normal; sharp pain is not. Stop any exercise that causes sharp pain
or makes swelling worse the next day, and contact your physiotherapist.

1. Heel slides. Lie on your back with your legs straight. Slowly slide the heel of the injured
leg towards your bottom, bending the knee as far as is comfortable. Hold for 5 seconds, then
slide back. Repeat 10 times, 3 times a day.

2. Static quadriceps. Sit with your leg straight out in front of you. Tighten the muscle on the
front of your thigh, pushing the back of your knee down into the floor or bed. Hold for 5
seconds. Repeat 10 times, 3 times a day.

3. Straight leg raise. Lie on your back, bend the good knee with the foot flat. Tighten the thigh
of the injured leg and lift it about 20 cm, keeping it straight. Hold for 3 seconds and lower
slowly. Repeat 10 times, twice a day. Start this only when you can do exercise 2 without pain.

4. Mini squats. Stand holding the back of a chair. Bend both knees slightly, no more than a
quarter of the way down, keeping your heels on the floor. Straighten up. Repeat 10 times, twice
a day, from the second week.

5. Calf raises. Stand holding the chair and rise onto your toes, then lower slowly. Repeat 15
times, twice a day.

Swelling: rest with the leg raised and use an ice pack wrapped in a towel for up to 15 minutes
every 2-3 hours during the first 2-3 days.

Seek medical help urgently if your knee locks and you cannot straighten it, gives way repeatedly,
becomes hot and red, or if you cannot put any weight on the leg.
''',
        tasks=[
            ("Turn this leaflet into a simple daily schedule table (morning, afternoon, evening) for week 1 and week 2.", 450),
            ("Rewrite this leaflet in plain language for someone with low literacy, using short sentences.", 600),
            ("Which warning signs in this leaflet mean I should get help urgently? Just list them.", 80),
            ("My knee feels fine doing exercises 1 and 2 but swells the day after straight leg raises. What does the leaflet suggest I do?", 150),
        ],
    ),
]
