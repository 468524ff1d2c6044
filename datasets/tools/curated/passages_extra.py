"""Longer material that makes the upper tail of input lengths. Written for this project.

Same shape as passages_code.py.
"""

INTERVIEW = r'''Customer interview - Fieldline (field service scheduling software)
Interviewee: operations manager at a heating and plumbing company, 45 technicians
Interviewer: product designer. Duration 42 minutes. Transcript lightly edited.

INTERVIEWER: Thanks for making time. Could you start by describing a normal morning for you?

MANAGER: Sure. I'm in at half six. First thing is the overnight emergencies - we have an on-call
technician and whatever he picked up overnight I need to know about, because it usually means
he's not starting his normal jobs on time. Then I look at who's called in sick. On a bad day in
January that's three or four people. Then I rebuild the day. That's the bit that takes me until
half eight, sometimes nine, and the phones start ringing at eight.

INTERVIEWER: What does rebuilding the day involve?

MANAGER: Moving jobs between technicians, basically. Each tech has between four and seven jobs a
day. If someone's off, his jobs have to go somewhere. But you can't just give them to anyone. Gas
work needs a gas-certified tech; some of our commercial customers only want specific people
because they know the building; some jobs need a van with the big parts stock. And then there's
geography - I don't want to send someone from the north side to the south side and back again.

INTERVIEWER: How do you do that today in Fieldline?

MANAGER: Honestly? Half of it happens on a whiteboard. Fieldline shows me the jobs on the map and
I can drag them to a person, which is fine for one or two. But when I'm moving fifteen jobs, I
need to see everyone's day at once, and the skills, and the travel time. The calendar view shows
me one technician at a time, or all of them in a week view where I can't read anything. So I
write it out on the whiteboard, then I go and drag everything in the software.

INTERVIEWER: Roughly how long does the dragging part take?

MANAGER: Forty minutes, maybe. And it's error-prone. Last month I dragged a boiler service to a
tech who isn't gas-certified and nobody noticed until he was standing in the customer's kitchen.
That's a wasted trip and an unhappy customer, and it could have been a safety issue if he'd
tried to do it, which he didn't, to be fair to him.

INTERVIEWER: Does the software warn you about certifications?

MANAGER: There's a skills field, but it doesn't stop you. I think there's a warning icon
somewhere but it's tiny and it's on the job detail, not when you drag.

INTERVIEWER: What happens after the day is rebuilt?

MANAGER: I have to tell customers. Any job that moved by more than an hour, we call the customer.
The office staff do that - two people. The software sends an automatic text with the arrival
window, but only when the job is first booked, not when it changes. So we call. On a bad day
that's thirty or forty calls. Some customers have taken a day off work, so they're not happy if
we move them to the afternoon.

INTERVIEWER: If the system sent an updated text automatically, would that help?

MANAGER: Yes and no. It would save calls for the simple moves. But for some customers I want a
human to call, like the elderly ones, or the commercial customers with a contract. So I'd want to
choose. Maybe a rule - texts for residential, call list for the others.

INTERVIEWER: Let's talk about the technicians. How do they experience changes?

MANAGER: They get a notification on the app. The problem is they don't always see it, because
they're driving or in a loft. So they follow their old plan and turn up at the wrong address, or
they phone me to ask, which is another interruption. The younger ones are fine with the app.
Some of the older lads would rather I just rang them.

INTERVIEWER: What about the end of the day?

MANAGER: Job completion is okay. They tick it off, take photos, the customer signs on the phone.
Where it falls apart is parts. If a tech uses a part from the van, he's supposed to log it, so we
can invoice it and restock. Maybe sixty percent of the time they do. The rest, we find out when
the van's empty, or when the accountant asks why the invoice doesn't include the pump we fitted.

INTERVIEWER: Why do you think they don't log it?

MANAGER: It takes too many taps. You have to search for the part, and the names in the catalogue
are the supplier's names, which nobody uses. A tech calls it a "Grundfos pump", the catalogue
calls it "CIRC PUMP UPS2 15-50/60 130MM". If they could scan the barcode on the box, they'd do
it. Or if the job type suggested the usual parts.

INTERVIEWER: If you could change one thing in Fieldline tomorrow, what would it be?

MANAGER: The morning. Give me a screen where I can see all my technicians' days side by side, with
their skills, and let me move jobs around with the travel time updating, and have it refuse to
put a gas job on a non-gas tech. If that took me twenty minutes instead of two hours, I'd be a
different person. Second would be the customer texts when things move.

INTERVIEWER: Have you looked at automatic scheduling - the system proposing the new plan for you?

MANAGER: We tried a product a few years ago that did that. It made plans that looked clever on
paper and were stupid in reality. It didn't know that Dave can't do the first job before nine
because he does the school run, or that one customer's dog means we only send Mark. I'd want it
to propose and me to decide. And I'd want to be able to tell it those things once, so it
remembers.

INTERVIEWER: How do you measure whether a day went well?

MANAGER: Jobs completed versus planned. First-time fix rate - did we fix it on the first visit or
do we have to go back. And complaints. Our first-time fix is about 78 percent; I'd like 85. A lot
of the second visits are because the tech didn't have the right part, which goes back to the
parts logging, because the van stock is wrong.

INTERVIEWER: You mentioned the office staff. How do they use Fieldline during the day?

MANAGER: They take the bookings. A customer rings, they find a slot, they book it. The problem is
the slots. The system offers the first free slot for any technician, but it doesn't know that the
first free slot is on the other side of the city from where that technician will be. So the
office books a job at ten in the north for a tech who's in the south at nine and eleven. I then
fix it in the morning, which is more rebuilding. I've asked them to look at the map first, but
when the phone queue is long, nobody looks at the map.

INTERVIEWER: What would a good booking look like?

MANAGER: The system should offer two or three slots that make sense, with the tech already nearby,
and let the office pick. Customers don't mind a two-hour window if it's reliable. What they hate
is a window that moves.

INTERVIEWER: How about the customer side - do customers use the online booking?

MANAGER: About a fifth of bookings come through the website now. Mostly annual boiler services,
which are easy because they're planned. Emergencies still come by phone, because people want to
talk to someone when there's water coming through the ceiling. I wouldn't want emergencies booked
online anyway; I need to ask questions first. Is the water off? Is there a smell of gas? That
decides who I send and how fast.

INTERVIEWER: Do you have any reporting you look at regularly?

MANAGER: Monthly, for the owners. Revenue per technician, jobs per day, first-time fix, callbacks,
overtime. I export it to a spreadsheet because the reports in Fieldline don't let me group things
the way the owners want. For example, they want to see commercial and residential separately, and
boiler work versus plumbing. That takes me half a day every month. If I could save a report
layout and have it emailed to them, that would be brilliant.

INTERVIEWER: You said overtime. Is that a big cost?

MANAGER: In winter, yes. When a tech finishes late because I gave him one job too many, we pay
time and a half. Some of that is unavoidable, emergencies happen. But some of it is because I
can't see the whole day properly when I plan it, so I overload the ones I know are fast. The fast
ones get tired, and then they leave. We lost two good engineers last year and both of them said
the workload was uneven. That hurt more than any software problem.

INTERVIEWER: If the scheduling screen showed each technician's planned finishing time, would that
change how you plan?

MANAGER: Completely. If I could see "Dave finishes at 18:40 with this plan" in red, I wouldn't do
it. Right now I only find out when Dave rings me at half five.

INTERVIEWER: That's a really interesting connection. Anything else you want us to know?

MANAGER: Just that the busiest time for us is when the software is most painful. In summer it's
fine, everything's planned. In January when the boilers break, I have no time, and that's when I
fight the software the most. If you design for January, you'll get it right.
'''

C_PARSER = r'''/* ini.c - a small INI file parser: sections, key = value, comments, line continuations. */
#include "ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INI_MAX_LINE 512

struct ini_entry {
    char *section;
    char *key;
    char *value;
    int line;
    struct ini_entry *next;
};

struct ini_file {
    struct ini_entry *head;
    struct ini_entry *tail;
    char error[256];
};

static char *trim(char *s) {
    char *end;
    while (isspace(*s)) s++;
    if (*s == 0) return s;
    end = s + strlen(s) - 1;
    while (end > s && isspace(*end)) end--;
    end[1] = '\0';
    return s;
}

static char *dup_string(const char *s) {
    size_t n = strlen(s);
    char *p = malloc(n);
    memcpy(p, s, n);
    return p;
}

static int add_entry(struct ini_file *ini, const char *section, const char *key,
                     const char *value, int line) {
    struct ini_entry *e = malloc(sizeof *e);
    if (!e) return -1;
    e->section = dup_string(section);
    e->key = dup_string(key);
    e->value = dup_string(value);
    e->line = line;
    e->next = NULL;
    if (ini->tail) ini->tail->next = e;
    else ini->head = e;
    ini->tail = e;
    return 0;
}

struct ini_file *ini_load(const char *path) {
    FILE *f = fopen(path, "r");
    struct ini_file *ini;
    char line[INI_MAX_LINE];
    char section[64] = "";
    char pending[INI_MAX_LINE * 4] = "";
    int lineno = 0;

    if (!f) return NULL;
    ini = calloc(1, sizeof *ini);

    while (fgets(line, sizeof line, f)) {
        char *p, *eq, *key, *value;
        size_t len;
        lineno++;

        len = strlen(line);
        if (len && line[len - 1] == '\n') line[--len] = '\0';

        /* a trailing backslash continues the value on the next line */
        if (len && line[len - 1] == '\\') {
            line[len - 1] = '\0';
            strcat(pending, line);
            continue;
        }
        if (pending[0]) {
            strcat(pending, line);
            strcpy(line, pending);
            pending[0] = '\0';
        }

        p = trim(line);
        if (*p == '\0' || *p == '#' || *p == ';') continue;

        if (*p == '[') {
            char *close = strchr(p, ']');
            if (!close) {
                snprintf(ini->error, sizeof ini->error, "line %d: missing ]", lineno);
                break;
            }
            *close = '\0';
            strcpy(section, trim(p + 1));
            continue;
        }

        eq = strchr(p, '=');
        if (!eq) {
            snprintf(ini->error, sizeof ini->error, "line %d: expected key = value", lineno);
            break;
        }
        *eq = '\0';
        key = trim(p);
        value = trim(eq + 1);

        /* strip an inline comment */
        {
            char *hash = strchr(value, '#');
            if (hash) *hash = '\0';
            value = trim(value);
        }

        /* quoted values keep their inner spaces */
        len = strlen(value);
        if (len >= 2 && value[0] == '"' && value[len - 1] == '"') {
            value[len - 1] = '\0';
            value++;
        }

        if (add_entry(ini, section, key, value, lineno) != 0) {
            snprintf(ini->error, sizeof ini->error, "out of memory");
            break;
        }
    }
    fclose(f);
    return ini;
}

const char *ini_get(const struct ini_file *ini, const char *section, const char *key) {
    const struct ini_entry *e;
    const char *found = NULL;
    for (e = ini->head; e; e = e->next)
        if (strcmp(e->section, section) == 0 && strcmp(e->key, key) == 0) found = e->value;
    return found;
}

long ini_get_long(const struct ini_file *ini, const char *section, const char *key,
                  long fallback) {
    const char *v = ini_get(ini, section, key);
    char *end;
    long n;
    if (!v) return fallback;
    n = strtol(v, &end, 10);
    if (*end != '\0') return fallback;
    return n;
}

const char *ini_error(const struct ini_file *ini) {
    return ini->error[0] ? ini->error : NULL;
}

void ini_free(struct ini_file *ini) {
    struct ini_entry *e = ini->head;
    while (e) {
        struct ini_entry *next = e->next;
        free(e->section);
        free(e->key);
        free(e);
        e = next;
    }
    free(ini);
}
'''

REMOTE_EVIDENCE = r'''Does remote work make people more or less productive? The honest answer from the research is
"it depends on what you measure, who is working, and how the work is organised" - which is less
satisfying than the confident claims on both sides, but more useful.

The most cited early evidence came from a randomised experiment at a large Chinese travel agency
in 2010-2011, where call-centre employees who volunteered were randomly assigned to work from
home four days a week for nine months. Those at home handled about 13% more calls, mostly because
they took fewer breaks and sick days and worked more minutes per shift, and they were half as
likely to quit. But the study also found that working from home reduced promotion rates, and
when the company offered the option to everyone afterwards, about half of the home workers chose
to return to the office, often citing loneliness.

Call-centre work is unusually easy to measure and unusually independent. Studies of more
collaborative work tell a different story. An analysis of tens of thousands of employees at a
large technology company during the 2020 shift to remote work found that collaboration networks
became more static and siloed: people communicated more with their close colleagues and less
across groups, and synchronous communication gave way to email and chat. The authors argued this
could harm innovation over time, even if individual output held up.

Other randomised work has found that fully remote arrangements can reduce productivity for tasks
that depend on learning from colleagues, with junior employees receiving less feedback when their
teams are not co-located. At the same time, hybrid arrangements - two or three days at home - have
in at least one large randomised trial shown no measurable loss in performance or promotions and
a meaningful drop in resignations, particularly among women, non-managers and employees with long
commutes.

Self-reported productivity is another complication. Surveys consistently find that employees
believe they are more productive at home, while managers are more sceptical. Neither group's
perception is a reliable measure. Companies that track output carefully often find smaller effects
than either side expects, and the effects that do exist depend heavily on management practices:
clear goals, regular feedback, deliberate time for in-person collaboration and good equipment.

For employers, the overall picture suggests that the location question matters less than
whether work is designed for it. Hybrid schedules with coordinated office days seem to capture
much of the retention benefit without most of the collaboration cost. Fully remote work suits
well-defined, independent tasks and experienced staff, and needs deliberate investment in
mentoring for newcomers. Fully in-office policies impose real costs in commuting time and
retention that should be weighed against benefits that are real but harder to measure.
'''

JSON_RESPONSE = r'''{
  "order": {
    "id": "ord_8Kq2Lz",
    "created_at": "2024-07-19T09:12:44Z",
    "status": "partially_shipped",
    "currency": "EUR",
    "customer": {"id": "cus_771", "email": "m.lindqvist@example.com", "tier": "gold"},
    "shipping_address": {"name": "Maja Lindqvist", "line1": "Storgatan 12", "city": "Uppsala",
                          "postcode": "753 20", "country": "SE"},
    "lines": [
      {"sku": "TNT-2P-GRN", "name": "Trail tent, 2 person, green", "qty": 1, "unit_price": 219.00,
       "discount": 21.90, "tax_rate": 0.25, "fulfilment": {"status": "shipped", "carrier": "postnord",
       "tracking": "SE123456789", "shipped_at": "2024-07-20T14:02:10Z"}},
      {"sku": "SLP-MAT-XL", "name": "Sleeping mat XL", "qty": 2, "unit_price": 59.00, "discount": 0,
       "tax_rate": 0.25, "fulfilment": {"status": "backordered", "expected": "2024-08-05"}},
      {"sku": "STV-GAS-01", "name": "Camping stove", "qty": 1, "unit_price": 45.00, "discount": 4.50,
       "tax_rate": 0.25, "fulfilment": {"status": "shipped", "carrier": "postnord",
       "tracking": "SE123456789", "shipped_at": "2024-07-20T14:02:10Z"}},
      {"sku": "GFT-CARD-50", "name": "Gift card 50", "qty": 1, "unit_price": 50.00, "discount": 0,
       "tax_rate": 0.0, "fulfilment": {"status": "delivered", "channel": "email"}}
    ],
    "shipping": {"method": "standard", "price": 0.00, "free_shipping_reason": "tier_gold"},
    "payments": [
      {"method": "card", "brand": "visa", "last4": "4242", "amount": 300.00, "status": "captured"},
      {"method": "gift_card", "code_last4": "9F2A", "amount": 105.60, "status": "captured"}
    ],
    "refunds": [],
    "notes": "Leave at the door if nobody answers."
  }
}
'''

NOVEL_OUTLINE = r'''Working title: The Cartographer's Daughter
Genre: literary mystery. Target length: 90,000 words. Point of view: first person (Elin), past tense.

Premise: In 1962, Elin Voss, 34, a translator in Stockholm, inherits the house of her estranged
father, a cartographer who mapped the northern coast for the navy. Among his papers she finds a
hand-drawn map of an island that doesn't exist on any official chart, annotated with dates from
the war years. Her search for the island becomes a search for the father she never understood.

Part one (chapters 1-8): Elin arrives in the coastal town of Hallvik to empty the house. The
townspeople are polite and closed. She finds the map, a locked sea chest, and letters in German
from someone who signs only "K". The harbour master, Arvid, knew her father and tells her he
"helped people cross". Elin assumes this means refugees from Norway and feels a first pride in
her father. End of part one: the chest contains naval documents stamped secret and a photograph of
her father with a German officer.

Part two (chapters 9-18): Elin translates the letters with growing dread. K seems to be a German
naval officer passing information - but to whom? She meets Sigrid, 70, who was her father's
assistant during the war and now lives alone on a nearby skerry. Sigrid is evasive, then hostile.
A storm strands Elin on the skerry for two nights, and Sigrid tells a version of the story in
which Elin's father used his survey trips to smuggle both refugees and intelligence, and in which
K was a defector. Midpoint: Elin finds the island - a tidal rock visible only at the lowest tides,
omitted from charts on purpose.

Part three (chapters 19-26): Arvid's account and Sigrid's contradict each other. Elin discovers
that one crossing in 1944 ended with a boat lost and eleven refugees drowned, and that the town
blamed her father. She learns that her mother left because of this, not, as she was told, because
of his drinking. Climax: at the lowest tide of the year, Elin and Sigrid go out to the rock, where
Sigrid finally admits that she, not Elin's father, gave the boat's route to K, believing he was
trustworthy. Elin's father took the blame to protect her.

Ending (chapters 27-28): Elin decides what to do with the truth. She donates the maps to the
maritime museum with a letter naming the drowned refugees, but does not name Sigrid. The last
image: Elin drawing her own map of the house as she leaves it.

Themes: the ethics of silence; maps as acts of omission; inherited guilt.
Open problems: Arvid's motive feels thin; part two may be too long; the K letters risk becoming
an info dump.
'''

PASSAGES = [
    dict(
        id="customer-interview",
        fence=None,
        text=INTERVIEW,
        tasks=[
            ("I'm the product designer who ran this customer interview. Synthesise it: key pains, their root causes, quotes worth sharing with the team, and opportunities ranked by impact.", 1000),
            ("Write three user stories with acceptance criteria for the morning rescheduling screen the manager describes.", 700),
            ("What assumptions should we validate with other customers before building anything based on this interview?", 450),
            ("Summarise this interview in five bullet points for a Slack update.", 200),
            ("The manager rejected automatic scheduling. Design an assisted rescheduling feature that respects his concerns, in a few paragraphs.", 700),
            ("Which follow-up questions would you ask this manager in a second interview?", 300),
        ],
    ),
    dict(
        id="c-ini-parser",
        fence="c",
        text=C_PARSER,
        tasks=[
            ("Please do a thorough review of this INI parser in C. Find memory-safety bugs first, then logic bugs, then style issues.", 1200),
            ("dup_string is broken. Explain exactly what goes wrong at runtime and fix it.", 200),
            ("This parser has at least three buffer overflows. Identify each one with the input that triggers it and the fix.", 700),
            ("Write a libFuzzer harness for ini_load (it takes a path, so handle that) and explain what the fuzzer would likely find first.", 600),
            ("The inline comment stripping breaks some values. Give examples and propose a rule that works with quoted values.", 400),
            ("Rewrite ini_load to parse from a memory buffer with explicit length instead of a FILE, with no fixed-size buffers. Full function please.", 1400),
        ],
    ),
    dict(
        id="remote-evidence",
        fence=None,
        text=REMOTE_EVIDENCE,
        tasks=[
            ("Based only on this text, what should a 200-person software company's remote work policy look like? Justify each point with the evidence mentioned.", 600),
            ("Summarise this article in four sentences.", 150),
            ("What are the weaknesses of the evidence described here? Think about generalisability and measurement.", 500),
            ("Turn this into a balanced slide outline (6 slides) for a leadership meeting.", 500),
            ("Write a short counter-argument from the perspective of a CEO who wants everyone back in the office five days a week, engaging fairly with this evidence.", 450),
        ],
    ),
    dict(
        id="json-order",
        fence="json",
        text=JSON_RESPONSE,
        tasks=[
            ("From this order JSON, compute the order subtotal, total discounts, VAT and grand total, and check whether the captured payments match. Show your working.", 500),
            ("Write a customer email explaining the status of this order: what has shipped, what is delayed and when to expect it.", 300),
            ("Write a JSON Schema for this order document.", 1200),
            ("Write a jq command that lists each line's SKU with its fulfilment status, one per line.", 100),
            ("Design the database tables that could store this order, and point out anything in the JSON that is awkward to model.", 700),
        ],
    ),
    dict(
        id="novel-outline",
        fence=None,
        text=NOVEL_OUTLINE,
        tasks=[
            ("I'm writing this novel. Give me a developmental edit of the outline: structure, pacing, character motivations and the ending.", 1000),
            ("Address the open problem about Arvid: propose two ways to give him a stronger motive that fits the story.", 450),
            ("Write the opening page of chapter 1 based on this outline, in Elin's voice.", 600),
            ("Write a query letter pitch paragraph for this novel for literary agents.", 300),
            ("How can I deliver the K letters without an info dump? Suggest techniques with short examples.", 500),
            ("Write the back-cover blurb, about 150 words.", 250),
        ],
    ),
]
