"""Standalone requests with context or detailed instructions (multi-sentence to multi-paragraph).

Written for this project: (text, output budget in tokens).
"""

REQUESTS = [
    ("""I run a small online shop selling handmade ceramics (about 40 orders a month). I'm spending around
10 hours a week on admin: answering the same customer questions, printing shipping labels one by
one, and updating stock in a spreadsheet after every sale. I use Shopify and Google Sheets.

What could I automate, with which tools, and roughly what would it cost? Please prioritise by
time saved per euro spent.""", 700),
    ("""I'm a high school physics teacher. Next week I'm introducing Newton's laws to 15-year-olds who
find physics boring. I have two 50-minute lessons and a budget of basically zero, but I do have
trolleys, string, some weights and a projector.

Can you plan both lessons for me with timings, at least one hands-on activity per lesson, and a
short exit ticket at the end of each?""", 1000),
    ("""I need to write a function that takes a list of meeting time ranges like [(9, 10.5), (10, 11),
(13, 14)] and returns the merged ranges, here [(9, 11), (13, 14)]. Input isn't sorted, ranges
can be nested, and touching ranges like (9, 10) and (10, 11) should be merged.

Please write it in Python with type hints, explain the complexity, and include tests for the edge
cases you can think of.""", 700),
    ("""My team is debating whether to split our monolith (Django, about 300k lines, 25 developers,
deploys twice a week, one Postgres database) into microservices. The main pain points are slow CI
(45 minutes), frequent merge conflicts in a few core modules, and one part of the system (PDF
report generation) that uses a lot of CPU and slows everything down at month end.

Give me a balanced recommendation. Don't just say "it depends" - tell me what you would do
first and what you'd measure.""", 900),
    ("""Can you help me write a short grant application paragraph? Our community garden wants 8,000 EUR
from the city's green fund for raised beds accessible to wheelchair users, a rainwater tank, and
tool storage. We have 60 members, run weekly sessions with a local school and a care home, and
have existed for 6 years on volunteer work. The paragraph should be about 200 words and focus on
community impact.""", 350),
    ("""I'm building a habit tracker as my first real web app. Frontend in React, I want users to log in,
create habits, tick them off daily, and see streaks. I'm considering Firebase, Supabase, or
writing my own Express + Postgres backend.

I have about 10 hours a week and would like to launch in two months. Which backend would you
choose and why? Then sketch the data model for habits and check-ins.""", 800),
    ("""Please explain, step by step, how I should approach this interview problem and then solve it in
Java: "Given an array of integers and a target k, return the number of contiguous subarrays whose
sum equals k." I'd like to understand why the brute force is too slow and where the prefix sum
trick comes from, not just see the answer.""", 800),
    ("""I manage a team of six support agents. Our customer satisfaction score dropped from 92% to 84%
in the last quarter. During the same time we introduced a chatbot that handles the first
message, ticket volume went up 15%, and two experienced agents left and were replaced by new
hires. Survey comments mention "had to repeat myself" and "slow replies".

How should I figure out what's actually driving the drop, and what would you try first?""", 700),
    ("""Write a Python script that watches a folder for new CSV files, validates that each has the columns
id, name, email and signup_date (ISO format), moves valid files to processed/ and invalid ones to
rejected/ with a .error.txt file explaining what was wrong, and logs everything. Use only the
standard library, polling every 5 seconds is fine.""", 1200),
    ("""I'm writing a fantasy novel. My magic system: people can borrow memories from others by touch,
but each borrowed memory fades from the original owner. Memories can be traded, and there is a
black market. The protagonist is a memory courier who discovers she's carrying a memory that
someone important wants erased.

Help me develop the world: social consequences of this magic, laws, and three possible plot
twists.""", 1000),
    ("""Our startup has 18 months of runway. We have two products: a B2B analytics tool with 30 paying
customers (growing 5% a month, average 900 EUR/month each) and a consumer app with 40,000 free
users and no revenue yet, which the founders love. The board wants us to focus on one.

Lay out the case for each option and then give me your recommendation with the numbers you're
using.""", 900),
    ("""I have a Raspberry Pi 4 and want to build a home dashboard on a small screen in the kitchen that
shows the weather, our family calendar (Google Calendar), bus departures from the stop nearby,
and a to-do list. I know a bit of Python.

Suggest an architecture and a step-by-step plan, including how to make it start automatically in
full-screen mode after a power cut.""", 900),
    ("""Translate the following into natural, polite Japanese for a business email, and also give a
romanised version:

"Thank you for your quick reply. We would like to confirm the meeting on Tuesday at 3pm at your
Osaka office. Two people from our team will attend. Please let us know if we should prepare
anything in advance." """, 400),
    ("""I need to give a 10-minute talk to my company's all-hands about what our data team does. Most
people think we "make dashboards". I want them to understand that we also run experiments,
maintain data quality, and build the forecasting models that decide stock levels.

Draft an outline with a strong opening and a memorable closing, and suggest one simple visual
per section.""", 700),
    ("""You're a careful code reviewer. What's wrong with this JavaScript function, and how would you
rewrite it?

function getUserNames(users) {
  var names = [];
  for (var i = 0; i <= users.length; i++) {
    if (users[i].active = true) {
      names.push(users[i].firstName + ' ' + users[i].lastName)
    }
  }
  return names.sort();
}""", 450),
    ("""My elderly mother (81) lives alone two hours away from me. She's still independent but had a
fall last month and is forgetting to take her medication sometimes. She doesn't want to move or
have carers. I'd like to make her home safer and keep an eye on things without taking away her
independence.

What practical steps, devices or services would you suggest, and how do I bring this up with her
without upsetting her?""", 800),
    ("""Write a SQL query for this: we have tables orders(id, customer_id, created_at, total) and
customers(id, name, country). For each country, I want the top 3 customers by total spend in
2023, with their spend and their share of the country's total. Use PostgreSQL. Then explain how
the window functions in your query work.""", 600),
    ("""I'm a nurse thinking about switching careers into software development at 34. I've done some
free online courses (HTML, CSS, a bit of JavaScript) and enjoyed them. I have savings for about
six months without income, a mortgage, and a partner who supports the idea.

Is this realistic? Compare a bootcamp, a part-time degree and self-study, and suggest a plan that
doesn't risk everything at once. Also: are there roles that combine healthcare and tech where my
background is an advantage?""", 1000),
    ("""Explain how transformers (the neural network architecture) work to someone who understands basic
linear algebra and has trained a simple neural network before. Cover embeddings, attention,
multi-head attention, positional information and why the architecture scales well. Use small
numerical examples where it helps.""", 1500),
    ("""We're a team of 12 engineers and our on-call is burning people out: about 30 pages a week, half of
them at night, and most turn out to be noise (disk usage warnings, brief latency spikes that
recover on their own). People dread their on-call week.

Give me a concrete 6-week plan to fix this, including how to decide which alerts to delete,
which to keep and how to measure progress.""", 900),
    ("""I wrote this paragraph for my thesis introduction and my supervisor said it "lacks focus".
Can you tell me why and rewrite it?

"Climate change is one of the biggest problems facing humanity today. There are many causes of
climate change, such as burning fossil fuels, deforestation, and agriculture. Agriculture is
very important because everyone needs food. In this thesis I will look at methane emissions
from dairy farms in the Netherlands, and also at policies in other countries, and possible
technologies, because it is a very complex problem with many aspects." """, 500),
    ("""Design a database schema for a multi-tenant SaaS project management tool: organisations, users
(who can belong to several organisations with different roles), projects, tasks with assignees,
comments, and an audit log. Use PostgreSQL. Explain how you'd enforce tenant isolation and which
indexes you'd add.""", 1200),
    ("""Please write a well-structured README for an open-source command-line tool called "tidyphotos"
that sorts photos into folders by date taken (from EXIF, falling back to file time), detects
duplicates by hash, and has a dry-run mode. It's written in Go and installed with `go install`.
Include usage examples and a section on how it handles photos without EXIF data.""", 900),
    ("""I'm comparing two job offers:

A) Large bank, 72,000 salary, 10% bonus, 35-minute commute, hybrid 3 days in office, stable,
   slow-moving tech stack (Java 8, on-premise).
B) Scale-up with 120 employees, 65,000 salary plus stock options (0.05%), fully remote, modern
   stack, recently raised a Series B, but rumours of a tough market.

I'm 28, no kids, want to grow as an engineer. Help me think it through; don't just list pros and
cons, tell me which questions would change the answer.""", 800),
    ("""Write a Bash script that checks a list of websites from a text file (one URL per line) every
minute, records the HTTP status and response time to a CSV, and sends a message to a Slack
webhook when a site is down for three checks in a row or recovers. Make sure it doesn't spam
Slack.""", 900),
    ("""I'm a volunteer coordinator for a food bank. We have 80 volunteers and schedule shifts with a
shared spreadsheet, which is chaos: double bookings, no-shows, and people not knowing when
they're needed. I have no budget but could use free tools.

What would a better system look like, and how do I introduce it to volunteers aged 18 to 80
without losing the older ones?""", 700),
    ("""Here's my plan for a 10-day training block before a half marathon; I'm aiming for 1:45 and my
recent 10 km was 48:30. Monday rest, Tuesday intervals 6x800m, Wednesday easy 8 km, Thursday
tempo 10 km, Friday rest, Saturday long run 18 km, Sunday easy 6 km, then the race the following
Sunday after a taper week. Is 1:45 realistic, and is this plan sensible? What would you change?""", 500),
    ("""Can you write a short children's book (about 12 pages, 2-3 sentences per page) about a cloud who
is afraid of raining because she thinks everyone will be sad? Include suggestions for what each
page's illustration should show.""", 900),
    ("""I keep getting "CORS policy: No 'Access-Control-Allow-Origin' header is present" when my React app
on localhost:5173 calls my Express API on localhost:3000. I added app.use(cors()) but it still
fails for POST requests with JSON bodies and cookies. What's going on and how do I fix it
properly for both development and production?""", 600),
    ("""My small team uses Scrum but our retrospectives have become boring and nothing changes after
them. The same three complaints come up every time (unclear requirements, too many meetings,
interruptions from support). Suggest five different retrospective formats and a way to make sure
action items actually get done.""", 700),
    ("""I'm designing the rate limiter for our public API. Requirements: per-API-key limits (e.g. 100
requests per minute, bursts allowed), it must work across 12 stateless app servers, latency
overhead under 2 ms, and limits should be configurable per customer plan.

Compare token bucket, sliding window log and sliding window counter for this, pick one, and show
how you'd implement it with Redis (including the Lua script).""", 1400),
    ("""Please proofread this and fix grammar, but keep my voice:

"Hi everyone, just a quick reminder that the deadline for submitting you're expense reports are
this Friday. Please make sure all receipts is attached, otherwise finance will reject them and
you will have to resubmit, which take time for everybody. If you have any question feel free to
reach out to myself or Maria. Thanks alot!" """, 200),
    ("""Create a 12-week plan for learning data analysis from scratch for someone who knows Excel well.
Include SQL, Python (pandas), basic statistics and visualisation, with weekly goals, free
resources to use, and a portfolio project for the end.""", 1400),
    ("""Explain what happens, in as much detail as is useful for a backend engineer, from the moment I type
https://example.com into the browser and press Enter until the page is displayed. Include DNS,
TCP, TLS, HTTP, caching, rendering, and where things usually go wrong.""", 1500),
    ("""I am writing a historical short story set in 1920s Berlin. My main character is a young woman who
works as a telephone operator and dreams of becoming a journalist. Can you give me authentic
details about daily life, work, clothing, prices, entertainment and politics in that period that
I could weave into the story, and point out common anachronisms to avoid?""", 1100),
    ("""Design a REST API for a library booking system where members reserve study rooms in 30-minute
slots, up to 2 hours per day, and staff can block rooms for events. Give the resources,
endpoints, request/response examples and how you'd prevent double bookings under concurrency.""", 1300),
    ("""I want to reduce my household's energy bills. We live in a 1970s semi-detached house (110 m2),
gas heating, single-glazed windows upstairs, no loft insulation that I know of, two adults
working from home. Which improvements give the best return for money, roughly in order, and what
can we do this winter for free?""", 800),
    ("""Help me write a difficult message. My business partner and I started a bakery three years ago.
He wants to open a second location; I think we aren't ready (we're just breaking even and I'm
exhausted). I want to say no clearly, explain my reasons, and suggest what would need to be true
for me to say yes in a year. I don't want to damage our friendship.""", 500),
    ("""Write a Python implementation of Conway's Game of Life that runs in the terminal, with a
configurable grid size, random or glider starting patterns, wrap-around edges, and a generation
counter. Keep it readable and explain the main function.""", 900),
    ("""Compare the main arguments of utilitarianism and Kantian ethics, then apply both to this case: a
self-driving car must choose between swerving into a wall (risking its single passenger) or
hitting three pedestrians who crossed against a red light. Finish with your own view on which
framework handles this case better.""", 1100),
    ("""I'm building a Chrome extension that highlights words on any page that are in the user's
vocabulary list (stored in extension storage), and shows the definition on hover. How should I
structure it (manifest v3, content script, service worker), and what are the performance
pitfalls on large pages? Include a code skeleton.""", 1300),
    ("""What are the biggest mistakes first-time managers make in their first 90 days, and how can I avoid
them? I've just been promoted to lead the team I used to be part of, including a colleague who
also applied for the role.""", 800),
    ("""I need a Terraform module that creates an AWS VPC with public and private subnets in three
availability zones, a NAT gateway per AZ (configurable to a single one for dev), route tables and
outputs for the subnet IDs. Please write the module files and an example of using it.""", 1800),
    ("""Write a Go program that reads a large access log (several GB) and prints the top 20 IP addresses
by request count and the top 20 paths by total bytes sent, using bounded memory and all CPU
cores. Log format is the common nginx combined format.""", 1300),
    ("""Review my plan for backing up family photos: I have about 400 GB on a laptop. Plan: copy to an
external drive once a month and keep the drive in the same drawer. Also some photos are on my
phone with iCloud. What are the risks and what would a better but still simple setup look like
within 100 EUR a year?""", 500),
    ("""Explain how I should think about the time complexity of this Python code, then make it faster:

def common_friends(users):
    result = []
    for a in users:
        for b in users:
            if a['id'] < b['id']:
                shared = [f for f in a['friends'] if f in b['friends']]
                if len(shared) >= 3:
                    result.append((a['id'], b['id'], len(shared)))
    return result

There are 20,000 users with up to 500 friends each.""", 800),
    ("""Our React Native app's startup time on Android went from 2 seconds to 6 seconds over the last
year. We use Redux with a large persisted store, load fonts and about 20 native modules at
startup, and call four APIs before showing the home screen. How do we find out where the time
goes, and what are the typical fixes?""", 900),
    ("""I teach English to adult beginners from many countries. Create a 60-minute lesson on ordering
food in a restaurant: warm-up, vocabulary, a role play with menus, pronunciation practice and a
short writing task. Include the menu text and the role play cards.""", 1200),
    ("""Please write a clear explanation of how the UK income tax bands and National Insurance apply to
someone earning 52,000 GBP a year as an employee, with the calculation step by step. Note any
assumptions about the tax year you're using.""", 600),
    ("""We're migrating a 2 TB MySQL 5.7 database to Aurora PostgreSQL with at most 30 minutes of
downtime. The application is a Rails monolith with some raw SQL. Outline the migration plan,
tools, the main risks (types, collations, sequences, stored procedures) and a rollback plan.""", 1400),
    ("""I'm a beginner photographer with an entry-level DSLR and the kit lens (18-55 mm). Explain
aperture, shutter speed and ISO using a practical example - photographing my kids playing football
on a cloudy afternoon - and tell me which settings to start with.""", 600),
    ("""Write a function in C that parses a duration string like "1h30m", "45s", "2m5s" or "250ms" into
milliseconds. Reject malformed input with a clear error code, guard against overflow, and include
a small test main with good and bad inputs.""", 900),
    ("""Can you summarise the main positions in the debate about nuclear power as part of climate policy,
including cost, safety, waste, build times and grid reliability? Please present the strongest
version of each side and finish with what the evidence is most and least settled on.""", 1000),
    ("""My partner and I both work full time and keep arguing about housework. I do most of the cooking
and laundry, she does finances and most of the childcare logistics, and we both feel we do more.
Suggest a fair, practical way to split and track household tasks that doesn't turn into
scorekeeping.""", 600),
    ("""Write a technical blog post (around 900 words) titled "What I learned from load testing our API
for the first time". Include a realistic story: surprising bottleneck (connection pool), how the
test was set up, the numbers before and after, and five lessons.""", 1500),
    ("""Build me a simple but complete to-do list web page in a single HTML file with vanilla JavaScript:
add, edit, delete, mark done, filter (all/active/done), persist in localStorage, keyboard
accessible. Keep the CSS minimal but tidy.""", 1800),
    ("""I run a 12-room bed and breakfast. Occupancy is 85% in summer and 30% from November to March.
Brainstorm ways to increase winter revenue that fit a small family business, estimate what each
might bring in, and say which two you'd try first.""", 800),
    ("""Write a complete, well-commented Python implementation of a trie with insert, search,
starts_with, delete and a function that returns all words with a given prefix in lexicographic
order. Add a short usage example and discuss memory use versus a set of strings.""", 1100),
    ("""My landlord wants to increase the rent by 18% at the end of my lease, in a city where similar
flats cost about 10% less than what he's asking. I like the flat and have been a good tenant
for four years. Help me prepare for the negotiation: what to research, what to offer, and a
draft of the message.""", 700),
    ("""You are helping me plan a software project. We need an internal tool for HR to manage employee
onboarding: checklists per role, tasks assigned to IT/HR/managers, reminders, and a dashboard.
Five developers, three months. Write a project plan with milestones, a risk list and what you
would deliberately leave out of the first version.""", 1100),
    ("""I've been asked to explain to our board why the cloud bill doubled in six months. Our usage
data shows: compute +40%, data transfer +180%, storage +60%, a new managed Kafka cluster, and
many idle development environments. Write the explanation as a one-page memo with the likely
causes and a plan to bring costs down by 30% without hurting the product.""", 800),
    ("""Explain garbage collection in Java: generations, the main collectors (G1, ZGC, Parallel), what a
stop-the-world pause is, and how I would diagnose a service with 2-second pauses every few
minutes. Include the JVM flags and tools I'd use.""", 1300),
]
