"""Code, configuration and error-output passages, each with the requests asked about it.

Every passage was written for this project. `fence` is the language tag used when the
prompt wraps the passage in a Markdown code block ("" = plain block, None = no block).
Each task is (instruction, output budget in tokens).
"""

PASSAGES = [
    dict(
        id="py-csv-import",
        fence="python",
        text=r'''import csv
import sqlite3
import sys
from datetime import datetime

DB_PATH = "orders.db"

def connect():
    conn = sqlite3.connect(DB_PATH)
    conn.execute("""CREATE TABLE IF NOT EXISTS orders (
        id INTEGER PRIMARY KEY,
        customer TEXT,
        amount REAL,
        placed_at TEXT,
        country TEXT)""")
    return conn

def parse_row(row):
    amount = float(row["amount"].replace(",", ""))
    placed = datetime.strptime(row["date"], "%d/%m/%Y")
    return (int(row["order_id"]), row["customer"].strip(), amount,
            placed.isoformat(), row.get("country", "US"))

def import_file(path):
    conn = connect()
    cur = conn.cursor()
    count = 0
    with open(path) as f:
        reader = csv.DictReader(f)
        for row in reader:
            try:
                values = parse_row(row)
            except Exception:
                continue
            cur.execute("INSERT INTO orders VALUES (%s, '%s', %s, '%s', '%s')" % values)
            count += 1
            if count % 1000 == 0:
                conn.commit()
    print("imported", count, "orders")

def monthly_totals():
    conn = connect()
    rows = conn.execute("""SELECT substr(placed_at, 1, 7) AS month, SUM(amount)
                           FROM orders GROUP BY month ORDER BY month""").fetchall()
    for month, total in rows:
        print(f"{month}: {total:.2f}")

if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: import_orders.py FILE.csv")
        sys.exit(1)
    import_file(sys.argv[1])
    monthly_totals()
''',
        tasks=[
            ("This script imports orders from a CSV into SQLite. Some orders go missing after an import and I can't tell which. Find the bugs and explain each one.", 700),
            ("Rewrite this script so it uses parameterised queries, commits reliably, and reports the rows it skipped with the reason. Keep it a single file.", 1200),
            ("Is the string formatting in the INSERT statement dangerous here? Answer briefly and show the one-line fix.", 160),
            ("Write pytest tests for parse_row covering normal rows, thousands separators, bad dates and a missing country column.", 900),
            ("Explain what this code does to a colleague who doesn't know Python, in plain language, in under 150 words.", 220),
            ("What happens if the CSV file contains the same order_id twice? Walk through the behaviour and suggest how to make the import idempotent.", 450),
        ],
    ),
    dict(
        id="c-ring-buffer",
        fence="c",
        text=r'''#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *data;
    size_t cap;
    size_t head; /* next write */
    size_t tail; /* next read */
} ring;

ring *ring_new(size_t cap) {
    ring *r = malloc(sizeof *r);
    r->data = malloc(cap);
    r->cap = cap;
    r->head = r->tail = 0;
    return r;
}

size_t ring_used(const ring *r) {
    return (r->head - r->tail) % r->cap;
}

size_t ring_write(ring *r, const void *src, size_t n) {
    size_t space = r->cap - ring_used(r);
    if (n > space) n = space;
    size_t first = r->cap - r->head;
    if (first > n) first = n;
    memcpy(r->data + r->head, src, first);
    memcpy(r->data, (const unsigned char *)src + first, n - first);
    r->head = (r->head + n) % r->cap;
    return n;
}

size_t ring_read(ring *r, void *dst, size_t n) {
    size_t used = ring_used(r);
    if (n > used) n = used;
    size_t first = r->cap - r->tail;
    if (first > n) first = n;
    memcpy(dst, r->data + r->tail, first);
    memcpy((unsigned char *)dst + first, r->data, n - first);
    r->tail = (r->tail + n) % r->cap;
    return n;
}

void ring_free(ring *r) {
    free(r->data);
    free(r);
}
''',
        tasks=[
            ("Review this C ring buffer. I think it can't tell a full buffer from an empty one. Am I right, and what is the cleanest fix?", 600),
            ("Add error handling for allocation failures to this code and make ring_new return NULL cleanly. Show the full corrected file.", 700),
            ("Is this ring buffer safe to use from one producer thread and one consumer thread at the same time? If not, what would it take?", 650),
            ("Write a small test program in C that exercises wrap-around for ring_write and ring_read and checks the bytes with assert.", 700),
            ("Explain the modulo arithmetic in ring_used in two or three sentences.", 120),
        ],
    ),
    dict(
        id="js-react-list",
        fence="jsx",
        text=r'''import { useEffect, useState } from "react";

export default function TodoList({ userId }) {
  const [todos, setTodos] = useState([]);
  const [filter, setFilter] = useState("all");
  const [loading, setLoading] = useState(false);

  useEffect(() => {
    setLoading(true);
    fetch(`/api/users/${userId}/todos`)
      .then((res) => res.json())
      .then((data) => {
        setTodos(data);
        setLoading(false);
      });
  });

  function toggle(id) {
    const t = todos.find((x) => x.id === id);
    t.done = !t.done;
    setTodos(todos);
    fetch(`/api/todos/${id}`, {
      method: "PATCH",
      body: JSON.stringify({ done: t.done }),
    });
  }

  const visible = todos.filter((t) =>
    filter === "all" ? true : filter === "done" ? t.done : !t.done
  );

  if (loading) return <p>Loading...</p>;

  return (
    <div>
      <select value={filter} onChange={(e) => setFilter(e.target.value)}>
        <option value="all">All</option>
        <option value="open">Open</option>
        <option value="done">Done</option>
      </select>
      <ul>
        {visible.map((t) => (
          <li onClick={() => toggle(t.id)} style={{ textDecoration: t.done ? "line-through" : "none" }}>
            {t.title}
          </li>
        ))}
      </ul>
    </div>
  );
}
''',
        tasks=[
            ("My React component keeps hammering the API with requests and clicking an item doesn't cross it out. What's wrong?", 600),
            ("Refactor this component: fix the effect, make toggling immutable with an optimistic update that rolls back on error, and add keys. Return the whole component.", 1100),
            ("List the React warnings this component would print in the browser console, one line each.", 180),
            ("Convert this component to TypeScript with proper types for the todo items and props.", 900),
            ("How would you test this component with React Testing Library? Give two example tests.", 800),
            ("Suggest accessibility improvements for the list and the filter control.", 400),
        ],
    ),
    dict(
        id="sql-slow-report",
        fence="sql",
        text=r'''-- Runs every night, takes 40+ minutes on Postgres 15, tables:
-- customers (2M rows), invoices (60M rows), payments (55M rows)

SELECT c.id,
       c.name,
       c.region,
       (SELECT COUNT(*) FROM invoices i WHERE i.customer_id = c.id
          AND i.issued_at >= now() - interval '365 days') AS invoices_last_year,
       (SELECT SUM(i.total) FROM invoices i WHERE i.customer_id = c.id
          AND i.issued_at >= now() - interval '365 days') AS billed_last_year,
       (SELECT SUM(p.amount) FROM payments p
          JOIN invoices i ON i.id = p.invoice_id
          WHERE i.customer_id = c.id
          AND p.paid_at >= now() - interval '365 days') AS paid_last_year
FROM customers c
WHERE c.status = 'active'
  AND lower(c.region) IN ('emea', 'apac')
ORDER BY billed_last_year DESC NULLS LAST;

-- Existing indexes:
-- invoices(customer_id)
-- payments(invoice_id)
-- customers(status)
''',
        tasks=[
            ("This nightly report query is far too slow. Rewrite it to scan each big table once and explain why your version is faster.", 900),
            ("Which indexes would you add for this query and why? Be specific about column order.", 450),
            ("Explain what EXPLAIN ANALYZE output I should look for to confirm where the time goes in this query.", 500),
            ("The lower(c.region) condition: does it prevent index use on Postgres? Short answer please.", 150),
            ("Is paid_last_year computed correctly if a payment made this year belongs to an invoice from two years ago? Explain and fix if needed.", 400),
        ],
    ),
    dict(
        id="go-http-handler",
        fence="go",
        text=r'''package main

import (
	"encoding/json"
	"log"
	"net/http"
	"strconv"
	"sync"
)

type Item struct {
	ID    int     `json:"id"`
	Name  string  `json:"name"`
	Price float64 `json:"price"`
}

var (
	items  = map[int]Item{}
	nextID = 1
	mu     sync.Mutex
)

func createItem(w http.ResponseWriter, r *http.Request) {
	var it Item
	json.NewDecoder(r.Body).Decode(&it)
	mu.Lock()
	it.ID = nextID
	nextID++
	items[it.ID] = it
	mu.Unlock()
	w.WriteHeader(http.StatusCreated)
	json.NewEncoder(w).Encode(it)
}

func getItem(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.Atoi(r.URL.Query().Get("id"))
	it, ok := items[id]
	if !ok {
		http.Error(w, "not found", 404)
	}
	json.NewEncoder(w).Encode(it)
}

func listItems(w http.ResponseWriter, r *http.Request) {
	out := []Item{}
	for _, it := range items {
		out = append(out, it)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func main() {
	http.HandleFunc("/items", func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case "POST":
			createItem(w, r)
		case "GET":
			if r.URL.Query().Has("id") {
				getItem(w, r)
			} else {
				listItems(w, r)
			}
		}
	})
	log.Fatal(http.ListenAndServe(":8080", nil))
}
''',
        tasks=[
            ("Code review please: this is a tiny Go REST service. Point out the bugs and race conditions, most serious first.", 700),
            ("Fix every issue in this Go service (validation, races, status codes, content types, unknown methods) and show the full program.", 1300),
            ("Write table-driven tests using httptest for the create and get handlers.", 1000),
            ("Why does getItem still write a JSON body after http.Error? One paragraph.", 160),
            ("How would you add graceful shutdown on SIGTERM to this server? Show only the changed main function.", 450),
            ("The list endpoint returns items in random order. Why, and how do I make it stable?", 250),
        ],
    ),
    dict(
        id="bash-deploy",
        fence="bash",
        text=r'''#!/bin/bash
# deploy.sh - build and roll out the web app to the two app servers

APP=webshop
VERSION=$1
SERVERS="app1.internal app2.internal"
BUILD_DIR=/tmp/build

rm -rf $BUILD_DIR/*
git clone git@git.internal:shop/$APP.git $BUILD_DIR
cd $BUILD_DIR
git checkout $VERSION
npm install
npm run build

tar czf /tmp/$APP-$VERSION.tgz dist

for s in $SERVERS; do
  scp /tmp/$APP-$VERSION.tgz deploy@$s:/opt/$APP/releases/
  ssh deploy@$s "cd /opt/$APP/releases && tar xzf $APP-$VERSION.tgz && ln -sfn /opt/$APP/releases/dist /opt/$APP/current && sudo systemctl restart $APP"
done

echo "Deployed $VERSION"
''',
        tasks=[
            ("What could go badly wrong when running this deploy script? Think about empty variables, failures halfway and concurrent runs.", 650),
            ("Harden this script: strict mode, argument checks, per-version release folders, a health check after each server and automatic rollback. Show the full script.", 1200),
            ("Explain in one short paragraph why `rm -rf $BUILD_DIR/*` is risky as written.", 140),
            ("Translate this deployment into a GitHub Actions workflow that runs on tags.", 900),
            ("The restart causes about ten seconds of errors for users. How could I deploy with no downtime using only these two servers and a load balancer?", 550),
        ],
    ),
    dict(
        id="rust-borrow",
        fence="",
        text=r'''use std::collections::HashMap;

struct Inventory {
    stock: HashMap<String, u32>,
    log: Vec<String>,
}

impl Inventory {
    fn take(&mut self, name: &str, n: u32) -> Result<u32, String> {
        let count = self.stock.get_mut(name).ok_or("unknown item")?;
        if *count < n {
            self.log.push(format!("short on {}", name));
            return Err(format!("only {} left", count));
        }
        *count -= n;
        self.log.push(format!("took {} {}", n, name));
        Ok(*count)
    }
}

error[E0499]: cannot borrow `self.log` as mutable because it is also borrowed as mutable
  --> src/main.rs:12:13
   |
10 |         let count = self.stock.get_mut(name).ok_or("unknown item")?;
   |                     ---------- first mutable borrow occurs here
11 |         if *count < n {
12 |             self.log.push(format!("short on {}", name));
   |             ^^^^^^^^ second mutable borrow occurs here
13 |             return Err(format!("only {} left", count));
   |                                               ----- first borrow later used here
''',
        tasks=[
            ("I'm learning Rust and I don't understand this borrow checker error. Can you explain it simply and show a fix?", 600),
            ("Is the error message really about self.log and self.stock conflicting? I thought disjoint fields were allowed. Explain what is going on precisely.", 550),
            ("Besides the borrow error, the `?` on ok_or(\"unknown item\") also won't compile. Why, and what's the idiomatic fix?", 400),
            ("Rewrite the take method idiomatically, with a proper error enum instead of String errors.", 700),
        ],
    ),
    dict(
        id="java-stacktrace",
        fence="",
        text=r'''2024-03-18 09:41:07.212 ERROR 18244 --- [nio-8080-exec-7] o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed; nested exception is org.springframework.orm.jpa.JpaSystemException: could not execute statement; nested exception is org.hibernate.exception.GenericJDBCException: could not execute statement] with root cause

org.postgresql.util.PSQLException: ERROR: value too long for type character varying(64)
	at org.postgresql.core.v3.QueryExecutorImpl.receiveErrorResponse(QueryExecutorImpl.java:2676)
	at org.postgresql.core.v3.QueryExecutorImpl.processResults(QueryExecutorImpl.java:2366)
	at org.postgresql.core.v3.QueryExecutorImpl.execute(QueryExecutorImpl.java:356)
	at org.postgresql.jdbc.PgStatement.executeInternal(PgStatement.java:490)
	at org.postgresql.jdbc.PgStatement.execute(PgStatement.java:408)
	at org.postgresql.jdbc.PgPreparedStatement.executeWithFlags(PgPreparedStatement.java:166)
	at org.postgresql.jdbc.PgPreparedStatement.executeUpdate(PgPreparedStatement.java:134)
	at com.zaxxer.hikari.pool.ProxyPreparedStatement.executeUpdate(ProxyPreparedStatement.java:61)
	at com.zaxxer.hikari.pool.HikariProxyPreparedStatement.executeUpdate(HikariProxyPreparedStatement.java)
	at org.hibernate.engine.jdbc.internal.ResultSetReturnImpl.executeUpdate(ResultSetReturnImpl.java:197)
	at org.hibernate.engine.jdbc.batch.internal.NonBatchingBatch.addToBatch(NonBatchingBatch.java:46)
	at org.hibernate.persister.entity.AbstractEntityPersister.insert(AbstractEntityPersister.java:3375)
	at org.hibernate.action.internal.EntityInsertAction.execute(EntityInsertAction.java:104)
	at org.hibernate.engine.spi.ActionQueue.executeActions(ActionQueue.java:604)
	at org.hibernate.event.internal.AbstractFlushingEventListener.performExecutions(AbstractFlushingEventListener.java:344)
	at org.hibernate.internal.SessionImpl.flush(SessionImpl.java:1407)
	at org.springframework.orm.jpa.JpaTransactionManager.doCommit(JpaTransactionManager.java:562)
	at org.springframework.transaction.support.AbstractPlatformTransactionManager.processCommit(AbstractPlatformTransactionManager.java:743)
	at org.springframework.transaction.interceptor.TransactionAspectSupport.commitTransactionAfterReturning(TransactionAspectSupport.java:654)
	at org.springframework.transaction.interceptor.TransactionInterceptor.invoke(TransactionInterceptor.java:123)
	at com.example.signup.web.SignupController$$EnhancerBySpringCGLIB$$5f1e2a1b.register(<generated>)
	at com.example.signup.web.SignupController.register(SignupController.java:58)

2024-03-18 09:41:07.230  WARN 18244 --- [nio-8080-exec-7] o.h.engine.jdbc.spi.SqlExceptionHelper   : SQL Error: 0, SQLState: 22001

Entity (abridged):
@Entity
public class Account {
    @Id @GeneratedValue private Long id;
    @Column(length = 64) private String email;
    @Column(length = 64) private String displayName;
    private String passwordHash;
}
''',
        tasks=[
            ("Our signup endpoint returns HTTP 500 for some users. Here's the log. What's the root cause and what should the API return instead?", 500),
            ("Summarise this stack trace in three bullet points for a non-Java developer.", 150),
            ("Propose a fix at three levels: request validation, the entity mapping and the database migration. Include code for each.", 900),
            ("Which line of our own code is involved in this trace, and why does the exception surface at commit time rather than at save()?", 350),
            ("Write a Flyway migration that widens both columns safely on a large production table.", 300),
        ],
    ),
    dict(
        id="nginx-logs",
        fence="",
        text=r'''10.0.4.17 - - [02/May/2024:14:02:11 +0000] "GET /api/v2/catalog?page=3 HTTP/1.1" 200 18422 "-" "Mozilla/5.0" rt=0.184 uct=0.001 urt=0.183
10.0.4.17 - - [02/May/2024:14:02:12 +0000] "GET /static/app.3f9a.js HTTP/1.1" 200 402113 "-" "Mozilla/5.0" rt=0.020 uct=- urt=-
10.0.7.90 - - [02/May/2024:14:02:12 +0000] "POST /api/v2/cart HTTP/1.1" 200 611 "-" "okhttp/4.12" rt=0.095 uct=0.000 urt=0.094
10.0.7.90 - - [02/May/2024:14:02:15 +0000] "POST /api/v2/checkout HTTP/1.1" 504 167 "-" "okhttp/4.12" rt=60.001 uct=0.001 urt=60.000
10.0.2.33 - - [02/May/2024:14:02:15 +0000] "GET /api/v2/catalog?page=1 HTTP/1.1" 200 18890 "-" "Mozilla/5.0" rt=0.201 uct=0.000 urt=0.200
10.0.2.33 - - [02/May/2024:14:02:16 +0000] "POST /api/v2/checkout HTTP/1.1" 502 157 "-" "Mozilla/5.0" rt=3.412 uct=0.001 urt=3.411
10.0.9.12 - - [02/May/2024:14:02:18 +0000] "GET /healthz HTTP/1.1" 200 2 "-" "kube-probe/1.29" rt=0.001 uct=0.000 urt=0.001
10.0.7.90 - - [02/May/2024:14:03:15 +0000] "POST /api/v2/checkout HTTP/1.1" 504 167 "-" "okhttp/4.12" rt=60.000 uct=0.001 urt=60.000
10.0.5.61 - - [02/May/2024:14:03:20 +0000] "POST /api/v2/checkout HTTP/1.1" 200 1290 "-" "Mozilla/5.0" rt=8.733 uct=0.000 urt=8.732
10.0.4.17 - - [02/May/2024:14:03:22 +0000] "GET /api/v2/orders HTTP/1.1" 200 3321 "-" "Mozilla/5.0" rt=0.310 uct=0.001 urt=0.309

2024/05/02 14:02:16 [error] 31#31: *88121 upstream prematurely closed connection while reading response header from upstream, client: 10.0.2.33, server: shop.example.com, request: "POST /api/v2/checkout HTTP/1.1", upstream: "http://10.0.12.5:9000/api/v2/checkout", host: "shop.example.com"
2024/05/02 14:03:15 [error] 31#31: *88140 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.7.90, server: shop.example.com, request: "POST /api/v2/checkout HTTP/1.1", upstream: "http://10.0.12.6:9000/api/v2/checkout", host: "shop.example.com"
''',
        tasks=[
            ("These are nginx access and error logs from our shop during an incident. What do they tell you? Give me your best hypothesis and what to check next.", 600),
            ("Write an awk or jq-free shell one-liner that prints the average and max upstream response time per endpoint from access lines like these.", 400),
            ("Explain the difference between the 502 and the 504 here, and what rt, uct and urt mean.", 350),
            ("Is the mobile client (okhttp) retrying the checkout? What risk does that create and how would you protect against double orders?", 450),
            ("Turn these observations into a short incident update for the #status channel, no more than five sentences.", 180),
        ],
    ),
    dict(
        id="k8s-crashloop",
        fence="",
        text=r'''$ kubectl -n payments get pods
NAME                              READY   STATUS             RESTARTS       AGE
ledger-api-7c9d5b6f8-2kqlm        0/1     CrashLoopBackOff   9 (2m1s ago)   24m
ledger-api-7c9d5b6f8-x8v4n        0/1     CrashLoopBackOff   9 (2m9s ago)   24m
ledger-api-5d8f7c9b4-qq7tz        1/1     Running            0              3d

$ kubectl -n payments describe pod ledger-api-7c9d5b6f8-2kqlm
...
Containers:
  ledger-api:
    Image:          registry.internal/ledger-api:2.14.0
    Limits:
      cpu:     500m
      memory:  256Mi
    Requests:
      cpu:      250m
      memory:   256Mi
    Liveness:   http-get http://:8080/healthz delay=5s timeout=1s period=5s #success=1 #failure=3
    Readiness:  http-get http://:8080/ready delay=5s timeout=1s period=5s #success=1 #failure=3
    Environment:
      JAVA_OPTS:         -Xms256m -Xmx512m
      DB_URL:            <set to the key 'url' in secret 'ledger-db'>
    Last State:     Terminated
      Reason:       OOMKilled
      Exit Code:    137
      Started:      Tue, 14 May 2024 10:12:40 +0000
      Finished:     Tue, 14 May 2024 10:13:02 +0000
Events:
  Type     Reason     Age                  From     Message
  ----     ------     ----                 ----     -------
  Normal   Pulled     24m                  kubelet  Successfully pulled image "registry.internal/ledger-api:2.14.0"
  Warning  Unhealthy  23m (x6 over 24m)    kubelet  Liveness probe failed: Get "http://10.1.3.44:8080/healthz": dial tcp 10.1.3.44:8080: connect: connection refused
  Normal   Killing    23m (x2 over 24m)    kubelet  Container ledger-api failed liveness probe, will be restarted
  Warning  BackOff    2m (x95 over 22m)    kubelet  Back-off restarting container
''',
        tasks=[
            ("Our new release of ledger-api won't start in Kubernetes. Based on this output, why, and what should we change?", 600),
            ("There are two separate problems in this pod spec. Name them in one sentence each.", 100),
            ("Write the corrected container resources and probes as YAML, with a startup probe for a slow-starting JVM.", 450),
            ("Why is the old ReplicaSet's pod still running and serving traffic? Explain how the rolling update is behaving.", 350),
            ("Explain what exit code 137 means and how it relates to the memory limit and JAVA_OPTS here, for a junior engineer.", 350),
        ],
    ),
    dict(
        id="ts-generic-error",
        fence="ts",
        text=r'''type ApiResult<T> = { ok: true; data: T } | { ok: false; error: string };

interface User { id: number; name: string; email?: string }
interface Team { id: number; members: User[] }

async function getJson<T>(url: string): Promise<ApiResult<T>> {
  const res = await fetch(url);
  if (!res.ok) return { ok: false, error: res.statusText };
  return { ok: true, data: await res.json() };
}

function emails(team: Team): string[] {
  return team.members.map((m) => m.email).filter((e) => e !== undefined);
}

export async function teamEmails(teamId: number) {
  const result = await getJson<Team>(`/api/teams/${teamId}`);
  if (result.error) {
    throw new Error(result.error);
  }
  return emails(result.data);
}

// tsc output:
// src/team.ts(13,3): error TS2322: Type '(string | undefined)[]' is not assignable to type 'string[]'.
//   Type 'string | undefined' is not assignable to type 'string'.
// src/team.ts(18,14): error TS2339: Property 'error' does not exist on type 'ApiResult<Team>'.
//   Property 'error' does not exist on type '{ ok: true; data: Team; }'.
// src/team.ts(21,24): error TS2339: Property 'data' does not exist on type 'ApiResult<Team>'.
''',
        tasks=[
            ("Explain these three TypeScript errors and fix them without using `as` casts or `!`.", 650),
            ("Write a reusable type guard for the filter so TypeScript narrows (string | undefined)[] to string[]. Keep it short.", 250),
            ("Is returning res.json() typed as T actually safe here? Discuss runtime validation options briefly.", 450),
            ("What does the discriminated union ApiResult buy us compared with throwing exceptions? Give pros and cons.", 400),
        ],
    ),
    dict(
        id="pytest-failure",
        fence="",
        text=r'''============================= test session starts ==============================
platform linux -- Python 3.11.6, pytest-8.0.2, pluggy-1.4.0
rootdir: /home/ci/work/billing
collected 48 items

tests/test_invoice.py ........F.....                                      [ 29%]
tests/test_tax.py .....F..                                                [ 45%]
tests/test_rounding.py ..........................                         [100%]

=================================== FAILURES ===================================
_____________________ test_invoice_total_with_discount ______________________

    def test_invoice_total_with_discount():
        inv = Invoice(lines=[Line("widget", 3, Decimal("19.99"))], discount_pct=15)
>       assert inv.total() == Decimal("50.97")
E       AssertionError: assert Decimal('50.9745') == Decimal('50.97')
E        +  where Decimal('50.9745') = <bound method Invoice.total of Invoice(lines=[...], discount_pct=15)>()

tests/test_invoice.py:88: AssertionError
__________________________ test_vat_reverse_charge ___________________________

    def test_vat_reverse_charge():
        c = Customer(country="DE", vat_id="DE123456789", business=True)
>       assert vat_rate(c, seller_country="FR") == Decimal("0")
E       AssertionError: assert Decimal('0.19') == Decimal('0')
E        +  where Decimal('0.19') = vat_rate(Customer(country='DE', vat_id='DE123456789', business=True), seller_country='FR')

tests/test_tax.py:41: AssertionError
=========================== short test summary info ============================
FAILED tests/test_invoice.py::test_invoice_total_with_discount - AssertionError: assert Decimal('50.9745') == Decimal('50.97')
FAILED tests/test_tax.py::test_vat_reverse_charge - AssertionError: assert Decimal('0.19') == Decimal('0')
========================= 2 failed, 46 passed in 1.84s =========================

# billing/invoice.py (relevant part)
def total(self):
    gross = sum(l.qty * l.unit_price for l in self.lines)
    return gross * (Decimal(100) - self.discount_pct) / Decimal(100)

# billing/tax.py (relevant part)
RATES = {"DE": Decimal("0.19"), "FR": Decimal("0.20"), "NL": Decimal("0.21")}
def vat_rate(customer, seller_country):
    if customer.business and customer.vat_id and customer.country == seller_country:
        return Decimal("0")
    return RATES.get(customer.country, Decimal("0"))
''',
        tasks=[
            ("Two billing tests started failing in CI. Explain each failure and fix the code, not the tests.", 650),
            ("For the rounding fix, which rounding mode should an invoice use, and where in the calculation should rounding happen? Short answer.", 250),
            ("Write two more test cases that would have caught the reverse-charge bug earlier.", 350),
            ("Summarise this CI run for a pull request comment in two sentences.", 80),
        ],
    ),
    dict(
        id="docker-compose",
        fence="yaml",
        text=r'''# docker-compose.yml
services:
  web:
    build: .
    ports:
      - "80:3000"
    environment:
      DATABASE_URL: postgres://app:app@db:5432/app
      REDIS_URL: redis://cache:6379
      SESSION_SECRET: changeme
    depends_on:
      - db
      - cache
  db:
    image: postgres:latest
    environment:
      POSTGRES_USER: app
      POSTGRES_PASSWORD: app
    ports:
      - "5432:5432"
  cache:
    image: redis
    ports:
      - "6379:6379"

# Dockerfile
FROM node:latest
COPY . /app
WORKDIR /app
RUN npm install
CMD npm start
''',
        tasks=[
            ("We want to use this docker-compose setup in production on a single VM. What would you change before doing that? Prioritise.", 650),
            ("Rewrite the Dockerfile as a small, cache-friendly multi-stage build that runs as a non-root user.", 500),
            ("Why does the web container sometimes fail on startup with 'connection refused' to the database even though depends_on is set? How do I fix it?", 400),
            ("Where does the Postgres data go when I run docker compose down, and how do I keep it?", 200),
        ],
    ),
    dict(
        id="terraform-s3",
        fence="hcl",
        text=r'''provider "aws" {
  region     = "eu-west-1"
  access_key = "AKIA................"
  secret_key = "......................................"
}

resource "aws_s3_bucket" "reports" {
  bucket = "acme-monthly-reports"
  acl    = "public-read"
}

resource "aws_s3_bucket_policy" "reports" {
  bucket = aws_s3_bucket.reports.id
  policy = jsonencode({
    Version = "2012-10-17"
    Statement = [{
      Effect    = "Allow"
      Principal = "*"
      Action    = "s3:*"
      Resource  = ["${aws_s3_bucket.reports.arn}/*"]
    }]
  })
}

resource "aws_iam_user" "uploader" {
  name = "report-uploader"
}

resource "aws_iam_user_policy" "uploader" {
  name = "upload"
  user = aws_iam_user.uploader.name
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = "*", Resource = "*" }]
  })
}
''',
        tasks=[
            ("Security review of this Terraform, please. Rank the problems by severity.", 600),
            ("Rewrite it so the bucket is private, encrypted and versioned, reports are shared through presigned URLs, and the uploader can only put objects under reports/. Use current AWS provider resources.", 1000),
            ("The acl argument on aws_s3_bucket gives a deprecation warning. What replaced it?", 200),
            ("Explain to my manager in plain words why this config could leak every report we have ever produced.", 200),
        ],
    ),
]
