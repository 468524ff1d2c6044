"""The long passages (about 1,200 to 2,000 estimated tokens), which make the length tail.

Written for this project. Same shape as passages_code.py.
"""

TASK_QUEUE = r'''"""jobs.py - a small persistent job queue on top of SQLite.

Workers call claim() to take the oldest runnable job, run it, then call
complete() or fail(). Failed jobs are retried with exponential backoff until
max_attempts is reached, after which they are marked dead.
"""
import json
import sqlite3
import threading
import time
import traceback
import uuid

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    id TEXT PRIMARY KEY,
    queue TEXT NOT NULL,
    payload TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'ready',
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 5,
    run_at REAL NOT NULL,
    claimed_by TEXT,
    claimed_at REAL,
    last_error TEXT,
    created_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_ready ON jobs(queue, state, run_at);
"""


class JobQueue:
    def __init__(self, path, lease_seconds=300):
        self.path = path
        self.lease_seconds = lease_seconds
        self._local = threading.local()
        with self._conn() as c:
            c.executescript(SCHEMA)

    def _conn(self):
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30)
            conn.row_factory = sqlite3.Row
            self._local.conn = conn
        return conn

    def enqueue(self, queue, payload, delay=0, max_attempts=5):
        job_id = str(uuid.uuid4())
        now = time.time()
        with self._conn() as c:
            c.execute(
                "INSERT INTO jobs (id, queue, payload, run_at, max_attempts, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (job_id, queue, json.dumps(payload), now + delay, max_attempts, now),
            )
        return job_id

    def claim(self, queue, worker_id):
        now = time.time()
        c = self._conn()
        row = c.execute(
            "SELECT * FROM jobs WHERE queue = ? AND state = 'ready' AND run_at <= ?"
            " ORDER BY run_at LIMIT 1",
            (queue, now),
        ).fetchone()
        if row is None:
            return None
        c.execute(
            "UPDATE jobs SET state = 'running', claimed_by = ?, claimed_at = ?,"
            " attempts = attempts + 1 WHERE id = ?",
            (worker_id, now, row["id"]),
        )
        c.commit()
        job = dict(row)
        job["payload"] = json.loads(job["payload"])
        return job

    def complete(self, job_id):
        with self._conn() as c:
            c.execute("DELETE FROM jobs WHERE id = ?", (job_id,))

    def fail(self, job_id, error):
        c = self._conn()
        row = c.execute("SELECT attempts, max_attempts FROM jobs WHERE id = ?",
                        (job_id,)).fetchone()
        if row["attempts"] >= row["max_attempts"]:
            state, run_at = "dead", time.time()
        else:
            state = "ready"
            run_at = time.time() + 2 ** row["attempts"]
        c.execute(
            "UPDATE jobs SET state = ?, run_at = ?, last_error = ?, claimed_by = NULL"
            " WHERE id = ?",
            (state, run_at, error[:2000], job_id),
        )
        c.commit()

    def requeue_expired(self):
        """Give jobs whose worker died back to the queue."""
        cutoff = time.time() - self.lease_seconds
        with self._conn() as c:
            n = c.execute(
                "UPDATE jobs SET state = 'ready', claimed_by = NULL"
                " WHERE state = 'running' AND claimed_at < ?",
                (cutoff,),
            ).rowcount
        return n

    def stats(self):
        rows = self._conn().execute(
            "SELECT queue, state, COUNT(*) AS n FROM jobs GROUP BY queue, state"
        ).fetchall()
        out = {}
        for r in rows:
            out.setdefault(r["queue"], {})[r["state"]] = r["n"]
        return out


def worker(queue, name, handlers, poll=1.0, stop=None):
    worker_id = f"{name}-{uuid.uuid4().hex[:6]}"
    while stop is None or not stop.is_set():
        for qname, handler in handlers.items():
            job = queue.claim(qname, worker_id)
            if job is None:
                continue
            try:
                handler(job["payload"])
            except Exception:
                queue.fail(job["id"], traceback.format_exc())
            else:
                queue.complete(job["id"])
        time.sleep(poll)


if __name__ == "__main__":
    q = JobQueue("jobs.db")
    q.enqueue("email", {"to": "someone@example.com", "template": "welcome"})
    stop = threading.Event()
    threads = [
        threading.Thread(target=worker,
                         args=(q, f"w{i}", {"email": lambda p: print("send", p)}),
                         kwargs={"stop": stop})
        for i in range(4)
    ]
    for t in threads:
        t.start()
    time.sleep(5)
    stop.set()
    for t in threads:
        t.join()
    print(q.stats())
'''

CACHE_DESIGN = r'''# Design: read-through cache for the pricing service

Status: draft for review. Author: platform team. Reviewers: pricing, SRE.

## Background

The pricing service answers "what does SKU X cost for customer Y right now" about 9,000 times a
second at peak. Each answer joins the base price list, the customer's contract, active
promotions and currency rates. The p50 latency is 38 ms and the p99 is 410 ms; almost all of the
time is spent in Postgres. Checkout calls pricing synchronously, so the p99 shows up directly in
checkout latency, and the database is at 70% CPU during the evening peak. Black Friday traffic
last year was 3.1 times the normal peak, which we would not survive today.

## Goals

1. Bring pricing p99 under 50 ms at three times today's peak.
2. Never show a price that is more than 60 seconds out of date, and never charge a price that
   differs from the one shown at checkout confirmation.
3. Keep the pricing API unchanged for its eleven callers.

Non-goals: rewriting the pricing rules engine; multi-region active-active (planned for next year).

## Proposal

Put a read-through cache in front of the rules engine, keyed by
(sku, customer_segment, currency, promo_epoch). Customers are grouped into about 400 pricing
segments, so the key space is roughly 2.3 million SKUs times 400 segments, of which about
4% is hot on any given day.

### Layers

* **L1: in-process**, per pod, 50,000 entries, LRU, TTL 10 s. Absorbs hot keys with no network hop.
* **L2: Redis cluster**, 6 shards, entries serialised with MessagePack, TTL 60 s.
* **Origin**: the existing rules engine and Postgres.

A lookup checks L1, then L2, then computes from origin and fills both layers. To avoid a
stampede when a hot key expires, only one request per pod recomputes a given key (single-flight);
the others wait up to 200 ms for its result and then fall back to computing themselves.

### Invalidation

Price changes come from three sources: the nightly price list import, contract edits in the
back office (about 300 a day), and promotions starting or ending. Each writes an event to the
existing `pricing-changes` Kafka topic. A small invalidator consumes the topic and deletes the
affected L2 keys. For promotions, which can touch millions of keys, we instead bump
`promo_epoch`, a counter that is part of every key, so old entries simply stop being read and
expire on their own.

L1 is not invalidated explicitly; its 10-second TTL bounds the staleness. Together with the
60-second L2 TTL this meets goal 2 for the display path.

### The checkout path

Goal 2 also requires that the charged price equals the confirmed price. Checkout will stop
re-pricing at payment time. Instead, the confirmation step returns a signed price quote (SKU,
segment, price, currency, expiry five minutes later) and payment verifies the signature and
expiry. If the quote has expired the user is shown the current price again. This removes the
cache from the correctness argument for charging: the cache can only make a quote stale by up to
60 seconds, and the quote is what is charged.

### Capacity

At three times peak we expect 27,000 requests per second. With a measured L1 hit rate of 62% in
a replay of last Tuesday's traffic and an L2 hit rate of 33% of the remainder, origin sees about
3,400 requests per second, about half of today's load. Redis at 10,000 operations per second per
shard leaves ample headroom on six shards.

### Failure modes

* **Redis unavailable**: lookups skip L2 with a 20 ms timeout and a circuit breaker; origin load
  rises to about 10,000 requests per second at normal peak, which it survives today, but not at
  three times peak. We will load-shed non-checkout callers first.
* **Invalidator lagging**: entries can be stale beyond 60 seconds only if the invalidator is down
  AND the TTL has not expired, which the TTL prevents; lag only matters for quotes, which are
  checked against the origin when older than their TTL.
* **Bad promo_epoch bump**: all keys miss at once. Single-flight and the 200 ms wait limit the
  damage to one recomputation per key per pod, about 3,000 extra origin requests per second for
  the first minute.

## Alternatives considered

* **Read replicas** for Postgres: cheaper to build, but only addresses CPU, not the 410 ms joins.
* **Precomputing all prices nightly** into a key-value store: 920 million rows, most never read,
  and promotions would still need live computation.
* **CDN caching**: prices are per customer segment and callers are internal services.

## Rollout

1. Ship the cache behind a flag with L1 only, in shadow mode (compute both, compare, log
   mismatches) for one week.
2. Enable L2 in shadow mode.
3. Switch the display path to cached answers, 5% of traffic, then 50%, then 100%.
4. Ship signed quotes to checkout.

## Open questions

* Should segment-specific contract edits invalidate by key pattern (SCAN is expensive on six
  shards) or should contracts get their own epoch counter per segment?
* Who owns the invalidator on call?
* Is a 60-second staleness acceptable to the legal team for displayed prices in the EU?
'''

SAAS_CONTRACT = r'''MASTER SUBSCRIPTION AGREEMENT (EXCERPT)

7. FEES AND PAYMENT

7.1 Fees. Customer shall pay all fees specified in each Order Form. Except as otherwise
specified in this Agreement or an Order Form, (a) fees are based on Subscriptions purchased and
not actual usage, (b) payment obligations are non-cancellable and fees paid are non-refundable,
and (c) the number of Subscriptions purchased cannot be decreased during the relevant
Subscription Term.

7.2 Invoicing and Payment. Fees will be invoiced annually in advance and are due thirty (30)
days from the invoice date. Customer is responsible for providing complete and accurate billing
and contact information and notifying Provider of any changes.

7.3 Overdue Charges. If any invoiced amount is not received by Provider by the due date, then
without limiting Provider's rights or remedies, those charges may accrue late interest at the
rate of 1.5% of the outstanding balance per month, or the maximum rate permitted by law,
whichever is lower.

7.4 Suspension of Service. If any amount owed by Customer is thirty (30) or more days overdue,
Provider may, without limiting its other rights and remedies, suspend Services until such
amounts are paid in full, provided that Provider has given Customer at least ten (10) days'
prior written notice that its account is overdue.

7.5 Price Increases. Provider may increase fees for any renewal Subscription Term by giving
Customer written notice at least sixty (60) days before the end of the then-current Subscription
Term. Any increase shall not exceed seven percent (7%) of the fees for the immediately preceding
term, unless the pricing in the prior term was designated as promotional or one-time.

8. TERM AND TERMINATION

8.1 Term of Agreement. This Agreement commences on the date Customer first accepts it and
continues until all Subscriptions hereunder have expired or have been terminated.

8.2 Term of Subscriptions. Subscriptions commence on the start date specified in the applicable
Order Form and continue for the Subscription Term specified therein. Except as otherwise
specified in an Order Form, Subscriptions will automatically renew for additional periods equal
to the expiring Subscription Term or one year (whichever is shorter), unless either party gives
the other written notice of non-renewal at least thirty (30) days before the end of the
relevant Subscription Term.

8.3 Termination for Cause. A party may terminate this Agreement for cause (a) upon thirty (30)
days' written notice to the other party of a material breach if such breach remains uncured at
the expiration of such period, or (b) if the other party becomes the subject of a petition in
bankruptcy or any other proceeding relating to insolvency, receivership, liquidation or
assignment for the benefit of creditors.

8.4 Refund or Payment upon Termination. If this Agreement is terminated by Customer in
accordance with Section 8.3, Provider will refund Customer any prepaid fees covering the
remainder of the term of all Order Forms after the effective date of termination. If this
Agreement is terminated by Provider in accordance with Section 8.3, Customer will pay any unpaid
fees covering the remainder of the term of all Order Forms. In no event will termination relieve
Customer of its obligation to pay any fees payable to Provider for the period prior to the
effective date of termination.

8.5 Portability and Deletion of Customer Data. Upon request by Customer made within thirty (30)
days after the effective date of termination or expiration of this Agreement, Provider will
make Customer Data available to Customer for export or download in a commonly used,
machine-readable format. After such 30-day period, Provider will have no obligation to maintain
or provide any Customer Data, and will thereafter delete or destroy all copies of Customer Data
in its systems, unless legally prohibited.

9. LIMITATION OF LIABILITY

9.1 Limitation of Liability. IN NO EVENT SHALL THE AGGREGATE LIABILITY OF EACH PARTY TOGETHER
WITH ALL OF ITS AFFILIATES ARISING OUT OF OR RELATED TO THIS AGREEMENT EXCEED THE TOTAL AMOUNT
PAID BY CUSTOMER HEREUNDER FOR THE SERVICES GIVING RISE TO THE LIABILITY IN THE TWELVE (12)
MONTHS PRECEDING THE FIRST INCIDENT OUT OF WHICH THE LIABILITY AROSE. THE FOREGOING LIMITATION
WILL NOT LIMIT CUSTOMER'S PAYMENT OBLIGATIONS UNDER SECTION 7 (FEES AND PAYMENT).

9.2 Exclusion of Consequential Damages. IN NO EVENT WILL EITHER PARTY HAVE ANY LIABILITY TO THE
OTHER PARTY FOR ANY LOST PROFITS, REVENUES OR GOODWILL, OR INDIRECT, SPECIAL, INCIDENTAL,
CONSEQUENTIAL, COVER, BUSINESS INTERRUPTION OR PUNITIVE DAMAGES, WHETHER AN ACTION IS IN
CONTRACT OR TORT AND REGARDLESS OF THE THEORY OF LIABILITY, EVEN IF A PARTY HAS BEEN ADVISED OF
THE POSSIBILITY OF SUCH DAMAGES.

9.3 Exceptions. The limitations in Sections 9.1 and 9.2 shall not apply to (a) a party's
breach of Section 11 (Confidentiality), (b) a party's indemnification obligations under
Section 10, or (c) a party's gross negligence, fraud or wilful misconduct.

11. CONFIDENTIALITY

11.1 Definition. "Confidential Information" means all information disclosed by a party
("Disclosing Party") to the other party ("Receiving Party"), whether orally or in writing, that is
designated as confidential or that reasonably should be understood to be confidential given the
nature of the information and the circumstances of disclosure. Customer's Confidential
Information includes Customer Data; Provider's Confidential Information includes the Services and
the terms of this Agreement, including pricing.

11.2 Protection. The Receiving Party shall use the same degree of care that it uses to protect
the confidentiality of its own confidential information of like kind (but not less than
reasonable care), shall not use any Confidential Information of the Disclosing Party for any
purpose outside the scope of this Agreement, and shall limit access to those of its and its
Affiliates' employees and contractors who need that access for purposes consistent with this
Agreement and who are bound by confidentiality obligations no less protective than these.

11.3 Compelled Disclosure. The Receiving Party may disclose Confidential Information of the
Disclosing Party to the extent compelled by law to do so, provided the Receiving Party gives the
Disclosing Party prior notice of the compelled disclosure (to the extent legally permitted) and
reasonable assistance, at the Disclosing Party's cost, if the Disclosing Party wishes to contest
the disclosure.

12. GENERAL PROVISIONS

12.1 Assignment. Neither party may assign any of its rights or obligations hereunder, whether by
operation of law or otherwise, without the other party's prior written consent (not to be
unreasonably withheld), except that either party may assign this Agreement in its entirety,
without consent, to its Affiliate or in connection with a merger, acquisition, corporate
reorganisation, or sale of all or substantially all of its assets.

12.2 Force Majeure. Neither party shall be liable for any delay or failure to perform resulting
from causes beyond its reasonable control, including acts of God, flood, fire, earthquake, civil
unrest, war, terrorism, strikes, pandemic, or failures of public utilities or internet service
providers, provided that this Section shall not excuse Customer's obligation to pay fees.

12.3 Governing Law. This Agreement shall be governed by the laws of Ireland, without regard to
its conflict of laws rules, and the courts of Dublin shall have exclusive jurisdiction over any
dispute arising out of or relating to this Agreement.

10. DATA PROTECTION

10.1 Provider shall process Customer Data only in accordance with Customer's documented
instructions and the Data Processing Addendum attached as Exhibit C. Provider shall notify
Customer without undue delay, and in any event within seventy-two (72) hours, after becoming
aware of a Security Breach affecting Customer Data.

10.2 Provider may engage sub-processors to process Customer Data, provided that Provider
maintains an up-to-date list of sub-processors on its website and gives Customer at least
fifteen (15) days' notice of any new sub-processor, during which Customer may object on
reasonable grounds. If Provider cannot address the objection, Customer may terminate the
affected Subscriptions and receive a refund of prepaid fees for the remainder of the term.
'''

POSTMORTEM = r'''Postmortem: checkout outage, 12 September

Summary
Between 14:07 and 15:52 UTC on 12 September, 38% of checkout attempts failed with HTTP 503, and
for 22 minutes within that window (14:41 to 15:03) checkout was fully unavailable. About 41,000
orders were affected; we estimate 11,500 were not retried by customers. No payments were
charged without an order being created, and no data was lost.

Impact
- Checkout error rate peaked at 100% (14:41-15:03) and averaged 38% over the incident.
- Estimated lost revenue: 610,000 EUR, before accounting for orders recovered later.
- Customer support received 2,900 contacts, roughly six times a normal afternoon.
- The mobile app showed a generic "something went wrong" screen with no retry button.

Timeline (UTC)
13:55  Deploy of inventory-service 4.18 begins (canary 5%).
14:02  Canary metrics look healthy; deploy proceeds to 100% automatically.
14:07  Checkout errors begin to rise. Alert "checkout 5xx > 2%" fires at 14:09.
14:12  On-call engineer (A.) acknowledges and starts investigating checkout-service.
14:20  Checkout-service shows thread-pool exhaustion waiting on inventory-service reservations.
14:26  A. pages inventory on-call (B.). B. sees p99 latency of the reserve endpoint at 9 s, up
       from 120 ms, and database connection pool saturation.
14:33  Decision to roll back inventory-service 4.18. Rollback starts.
14:41  Rollback causes all inventory pods to restart at once; readiness checks fail because
       the connection pool warm-up takes longer than the probe allows. Checkout fully down.
14:52  Incident commander (C.) appointed; status page updated for the first time.
14:58  B. raises the readiness probe timeout manually; pods start passing checks.
15:03  Checkout partially recovers.
15:20  Root cause identified: a new query in 4.18 locks the stock row for the whole
       reservation transaction, including a call to the pricing service.
15:35  Hotfix 4.18.1 with the pricing call moved outside the transaction is deployed to canary.
15:52  Error rate back to baseline. Incident resolved.

Root cause
Inventory-service 4.18 introduced a "reserve with price check" feature. The reservation
transaction now calls the pricing service while holding a row lock on the stock row (SELECT ...
FOR UPDATE). Pricing p99 is about 400 ms. For popular products, reservations queued behind one
another on the same row; with 40 database connections per pod and a long tail of lock waits, the
connection pools saturated and requests timed out. Checkout-service retried each failed
reservation up to three times with no backoff, tripling load on the struggling service.

The canary did not catch the problem because canary traffic is routed by user id, and the
5% sample rarely hit the same popular products concurrently; lock contention only appears at
full traffic.

Contributing factors
1. Automatic promotion from canary to 100% after seven minutes, with health judged only on error
   rate and p50 latency.
2. Retries without backoff or budgets in checkout-service.
3. Rollback restarts all pods simultaneously (maxUnavailable set to 100% in the rollback job).
4. Readiness probe timeout of 1 s is shorter than connection pool warm-up under load.
5. No incident commander for the first 45 minutes; the status page was updated 45 minutes after
   the first alert.

What went well
- The alert fired two minutes after errors began.
- Payment and order consistency checks held: no customer was charged without an order.
- The hotfix was small and correct.

Action items
1. Never hold database locks across network calls; add a lint rule for the ORM pattern.
   Owner: inventory. Due: 30 Sep.
2. Canary analysis to include p99 latency and connection pool saturation; extend canary to 30
   minutes for services on the checkout path. Owner: platform. Due: 15 Oct.
3. Retry budget (max 10% extra load) and exponential backoff with jitter in checkout-service.
   Owner: checkout. Due: 30 Sep.
4. Rollbacks use the same surge settings as deploys. Owner: platform. Due: 20 Sep.
5. Readiness probe: separate "started" from "ready"; warm the pool before reporting ready.
   Owner: inventory. Due: 30 Sep.
6. Appoint an incident commander automatically for any SEV-2 after 15 minutes. Owner: SRE.
   Due: 20 Sep.
7. Mobile app: show a retry button and keep the cart on checkout failure. Owner: mobile.
   Due: next release.
'''

LECTURE = r'''Okay, let's get started. Last week we talked about cell structure, and I promised that today
we'd finally look at what chloroplasts are actually doing. So: photosynthesis. Most of you have
seen the summary equation since school: carbon dioxide plus water, with light, gives glucose and
oxygen. Six CO2 plus six H2O gives C6H12O6 plus six O2. That equation is true, but it hides almost
everything interesting, so today I want to take it apart into its two big stages.

The first stage is the light-dependent reactions. These happen in the thylakoid membranes,
those stacked discs inside the chloroplast. The second stage is the Calvin cycle, sometimes
called the light-independent reactions, and it happens in the stroma, the fluid around the
thylakoids. I'll say right away that "light-independent" is a slightly misleading name, because
several enzymes of the Calvin cycle are switched on by light indirectly, so in practice it runs
during the day. Keep that in mind for the exam; it's a favourite trick question.

So, stage one. Light hits a pigment complex called photosystem two. Yes, two comes before one;
they were numbered in the order they were discovered, not the order they work in. The energy
excites electrons in a special pair of chlorophyll molecules, and those electrons are passed
down an electron transport chain. Photosystem two needs to replace the electrons it lost, and
it gets them by splitting water. This is where the oxygen we breathe comes from, which I find
remarkable every time I say it: the oxygen comes from the water, not from the carbon dioxide.
People got that wrong for a long time, until experiments with labelled oxygen isotopes settled it.

As electrons move along the chain, their energy is used to pump protons, hydrogen ions, into
the inside of the thylakoid. That builds up a concentration gradient, and the protons flow back
out through an enzyme called ATP synthase, which works a bit like a turbine and makes ATP. The
electrons then reach photosystem one, get a second boost from light, and end up reducing NADP+
to NADPH. So the outputs of stage one are ATP, NADPH and oxygen as a by-product. ATP is the energy
currency, NADPH is the reducing power, the source of high-energy electrons.

Question from the back? Yes, good question: does the plant use the oxygen? Some of it, for its
own respiration, especially at night, but during the day a photosynthesising leaf releases much
more oxygen than it consumes.

Stage two, the Calvin cycle. Here the ATP and NADPH are spent to build sugar from CO2. The key
enzyme is RuBisCO, which attaches CO2 to a five-carbon sugar called RuBP. The resulting
six-carbon molecule is unstable and immediately splits into two three-carbon molecules. Those are
then reduced, using NADPH and ATP, into a three-carbon sugar called G3P. Most of the G3P is used
to regenerate RuBP so the cycle can keep going, which costs more ATP, and only one in every six
G3P molecules leaves the cycle to build glucose and other compounds. So to make one glucose, the
cycle has to turn six times and fix six CO2.

Now, RuBisCO is probably the most abundant protein on Earth, and it's also rather bad at its
job. It's slow, a few reactions per second, and it can't fully tell CO2 from O2. When it grabs
oxygen instead, the plant goes through a wasteful process called photorespiration, which releases
CO2 that was already fixed. This gets worse when it's hot and dry, because the plant closes its
stomata to save water, CO2 inside the leaf runs low and oxygen builds up.

Some plants have evolved workarounds. C4 plants, like maize and sugarcane, first capture CO2
with a different enzyme in one type of cell, and then deliver it concentrated to RuBisCO in
another type of cell, so oxygen loses the competition. CAM plants, like cacti and pineapples,
separate the steps in time instead of space: they open their stomata at night, store CO2 as an
acid, and release it during the day with the stomata closed. That's a beautiful adaptation to
deserts.

For next week, read chapter eight, sections one to three, and try the practice questions on
limiting factors: light intensity, CO2 concentration and temperature. Think about why a graph of
photosynthesis rate against light intensity levels off. We'll do a lab on that with pondweed and
counting bubbles, which sounds primitive but works surprisingly well. Okay, that's it for today.
'''

SHORT_STORY = r'''The Lighthouse Keeper's Inventory

On the first morning of November, Maren climbed the ninety-one steps of the Skarvik light with
a notebook, because the letter from the maritime authority had said, politely, that the light
would be automated in the spring and that an inventory of the station's contents was required.

She began with the lamp room. One lens, first order, Fresnel, made in Paris in 1894, a little
chipped on the lower prism where her father had dropped a wrench in the winter of the big storm.
One brass oil can, no longer used. One logbook holder, empty, because the logbooks were
downstairs in the cabinet, forty-seven of them, one for every year since her grandfather came.

She wrote it all down in careful columns: item, condition, remarks. The authority had not asked
for remarks, but it seemed wrong to write "lens, good" and nothing else about a thing that had
turned every night of her life.

In the watch room she counted two chairs, one of them with a cushion her mother had embroidered
with a crooked gull, one barometer, one radio, one kettle, and a jar of the black licorice her
father had bought by the kilo and hidden from himself behind the tide tables. The jar was still
a quarter full. She wrote "licorice, 1 jar, partially consumed" and then crossed it out, and then
wrote it again.

Downstairs it became harder. The inventory had columns, but the kitchen did not fit into
columns. How did you write down the dent in the table where her brother had learned to use a
hammer? Or the fact that the third drawer stuck unless you lifted it slightly to the left, a
thing that three generations had known without ever being told? She wrote "table, oak, damaged"
and felt she was lying.

By noon the wind had turned. She could see the weather coming across the sound, a grey wall
with the islands disappearing into it one after another. The supply boat would not come today.
She made coffee and sat with the notebook, and instead of the kitchen she wrote a list of the
ships she remembered: the Nordlys that ran aground in 1987, though everyone was saved; the
little green fishing boat whose skipper waved every evening for eleven years and then stopped
coming, and nobody ever found out why; the cruise ships in summer, lit up like towns.

In the afternoon a man from the authority called on the radio to ask how the inventory was
going. She said it was going well. He said the new lamp would be an LED array, very reliable,
needing a visit only twice a year. He said it kindly, the way people say things to someone who
is losing something. She asked what would happen to the old lens. He said a museum in Bergen had
expressed interest.

When it got dark she went up and lit the lamp, though it did not need lighting any more; the
automatic switch had been installed in August, as a trial. She did it by hand anyway, the old
way, and stood in the lamp room watching the beam go out over the water, and around, and out
again.

Then she opened the notebook to a new page and wrote at the top, "Things that are not on the
list," and began.
'''

URBAN_HEAT = r'''Why cities are hotter than the countryside, and what can be done about it

On a still summer evening, the centre of a large city can be 5 to 10 degrees Celsius warmer
than the farmland around it. Meteorologists call this the urban heat island, and it is one of
the best-documented ways in which people change local climate. It matters more every year:
more than half of humanity now lives in cities, and heatwaves are becoming more frequent and
more intense.

Several mechanisms combine to produce the effect. The most important is the replacement of
vegetation and moist soil with asphalt, concrete and brick. Plants and wet ground cool
themselves by evaporating water, which consumes a large share of the incoming solar energy.
Dry, sealed surfaces cannot do this, so that energy heats the surface instead. Dark materials
such as asphalt also absorb more sunlight than grass or light-coloured stone: a fresh asphalt
road reflects only about 5% of sunlight, while a white roof can reflect 70% or more.

Second, buildings store heat. Concrete and brick have a large heat capacity, so they soak up
energy during the day and release it slowly through the night. This is why the heat island is
usually strongest after sunset rather than at midday. In the countryside, the ground cools
quickly under a clear night sky; in a city, tall buildings block part of the sky, so surfaces
radiate their heat towards each other rather than into space. Urban climatologists describe
this with the "sky view factor": the narrower the street canyon, the less the night-time cooling.

Third, cities produce heat directly. Vehicles, air conditioners, industry and even people
release energy that, in dense districts in winter or summer, can rival a noticeable fraction of
the sunlight reaching the ground. Air conditioning creates a particularly unfortunate feedback:
it moves heat from inside buildings to the street, warming the outdoor air and increasing the
demand for more cooling.

The consequences are not only about comfort. During the 2003 European heatwave, excess deaths
were concentrated among older people in dense urban neighbourhoods, especially those in
top-floor flats without air conditioning. Nights that stay warm prevent the body from recovering
from daytime heat, and it is the run of hot nights, more than the peak afternoon temperature,
that drives hospital admissions. Heat also raises electricity demand at the worst possible time,
worsens air quality by speeding up the chemistry that forms ground-level ozone, and makes outdoor
work dangerous.

The good news is that the heat island responds to design. Trees are the most effective tool:
a mature street tree shades the pavement and walls and transpires hundreds of litres of water on
a hot day. Studies in several cities have found that streets with full canopy cover can be 2 to
4 degrees cooler in the afternoon than comparable streets without trees. Parks create cool
islands that extend a few hundred metres into surrounding streets, especially when they contain
water.

Cool roofs and pavements, which use reflective coatings or lighter materials, reduce the
amount of solar energy absorbed. Green roofs combine insulation with evaporative cooling,
although they need maintenance and structural support. Some cities are experimenting with
permeable paving that keeps the ground moist after rain.

Planning matters as well. Leaving corridors for wind to flow from the countryside into the
centre, as Stuttgart has done for decades, brings cooler air into the city at night. Building
regulations can require shading, light-coloured facades and minimum green space in new
developments. None of these measures is expensive compared with the cost of a deadly heatwave,
but they take years to take effect: a tree planted today will shade a street only in ten or
twenty years. Cities that start now will be the ones that remain liveable in the summers to come.
'''

PASSAGES = [
    dict(
        id="py-job-queue",
        fence="python",
        text=TASK_QUEUE,
        tasks=[
            ("Please review this job queue module. Two workers sometimes run the same job. Explain why and fix claim() properly for SQLite.", 900),
            ("Find the remaining correctness problems in this module besides double claiming (think about fail(), requeue_expired and the worker loop). List them with a short fix for each.", 900),
            ("Write a README section for this module: what it is for, how to enqueue and process jobs, retry semantics, and its limits.", 700),
            ("Summarise what this code does in five bullet points.", 200),
            ("Would you use this in production instead of a real broker? Give an honest assessment for a team of three running one service.", 500),
            ("Add a `cancel(job_id)` method and a per-queue concurrency limit. Show only the new and changed code.", 800),
        ],
    ),
    dict(
        id="cache-design-doc",
        fence=None,
        text=CACHE_DESIGN,
        tasks=[
            ("I'm a reviewer on this design doc. Write my review: the strongest points, the weakest assumptions, and the questions I should ask before approving.", 1100),
            ("Summarise this design doc in one paragraph for an executive audience.", 200),
            ("Check the capacity arithmetic in this design doc. Are the origin request numbers consistent with the stated hit rates?", 500),
            ("Propose an answer to the first open question in the doc, with the trade-offs.", 550),
            ("Draft the metrics and alerts the SRE team should set up for this cache before rollout step 3.", 650),
            ("Produce a one-page checklist version of the rollout plan, including go/no-go criteria for each step.", 600),
        ],
    ),
    dict(
        id="saas-contract",
        fence=None,
        text=SAAS_CONTRACT,
        tasks=[
            ("I'm the customer signing this agreement. Explain these clauses in plain English and flag anything I should try to negotiate.", 1100),
            ("If we stop paying an invoice, what exactly can the provider do and when? Give a timeline based on the text.", 400),
            ("Does the liability cap protect us if the provider leaks our data? Answer based only on these sections.", 350),
            ("We want to cancel after the first year. What do we have to do and by when, according to this excerpt?", 250),
            ("Rewrite section 8.5 to be more customer-friendly, keeping it realistic enough that a vendor might accept it.", 450),
            ("Make a table of every deadline or notice period in this excerpt: section, who must act, how many days, what happens.", 600),
        ],
    ),
    dict(
        id="postmortem-checkout",
        fence=None,
        text=POSTMORTEM,
        tasks=[
            ("Here's our postmortem draft. Is it blameless and complete? What would you add or change before we publish it internally?", 800),
            ("Write a customer-facing incident summary based on this postmortem: honest, short, no internal names.", 350),
            ("Which action item would have prevented the most damage, and why? Argue for one.", 400),
            ("Extract the timeline into a table with columns time, event, and minutes since first error.", 600),
            ("Explain the root cause to a product manager with no database background, in under 120 words.", 180),
            ("Write the code-level guideline for action item 1 as a short section of our engineering handbook, with a bad and a good example in Python.", 700),
        ],
    ),
    dict(
        id="lecture-photosynthesis",
        fence=None,
        text=LECTURE,
        tasks=[
            ("This is a transcript of my biology lecture. Turn it into structured study notes with headings and key terms in bold.", 900),
            ("Write ten multiple-choice questions with answers based on this lecture.", 1000),
            ("What is the trick question the lecturer warns about, and what is the correct answer to it?", 120),
            ("Explain the difference between C4 and CAM plants using only what the lecture says, in a short paragraph.", 200),
            ("Are there any factual errors or oversimplifications in this lecture transcript? Be specific.", 600),
            ("Make a set of 12 flashcards (question / answer) from this lecture.", 700),
        ],
    ),
    dict(
        id="story-lighthouse",
        fence=None,
        text=SHORT_STORY,
        tasks=[
            ("I wrote this short story for a competition with a 1,500-word limit. Give me honest feedback on structure, character and prose, with concrete suggestions.", 900),
            ("Continue the story with the list Maren writes on the last page, in the same voice, about 300 words.", 500),
            ("What is this story about beneath the surface? Write a short analysis of its themes.", 500),
            ("Suggest five alternative titles and explain which you'd choose.", 250),
            ("Rewrite the opening two paragraphs to start closer to the emotional core, keeping the same facts.", 400),
        ],
    ),
    dict(
        id="article-urban-heat",
        fence=None,
        text=URBAN_HEAT,
        tasks=[
            ("Summarise this article in about 100 words.", 180),
            ("Turn this article into a one-page briefing for a city council, with three recommended actions and rough timelines.", 700),
            ("Extract every quantitative claim in the article into a list, and note which ones you'd want a source for.", 500),
            ("Explain the sky view factor from the article to a ten-year-old.", 150),
            ("Write five discussion questions for a secondary school geography class based on this text.", 300),
            ("Translate the first three paragraphs into German.", 700),
        ],
    ),
]
