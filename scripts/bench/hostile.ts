import type { Fixture } from "./fixture";

// The hostile inputs: requests another account sends, by two (or the scenario's hostileConnections) more connections
// in turn, while the isolation and noisy_neighbour scenarios' own load is measured.

export type HostileRequest = { name: string; path: string; headers: Record<string, string>; body: string };

/** A render of the attacker's template that loops until the sandbox's deadline stops it (422 after about 1 s). */
export function noisyNeighbourRequests(f: Fixture): HostileRequest[] {
  return [
    {
      name: "render to the deadline",
      path: `/api/v1/templates/${f.attacker.deadlineTemplateId}/render`,
      headers: { "x-api-key": f.attacker.key, "content-type": "application/json" },
      body: JSON.stringify({ variables: { mode: "loop" } }),
    },
  ];
}

/** The inputs that once stalled the server (issue 18), built once: a few of them take a while to build. */
export function hostileRequests(f: Fixture): HostileRequest[] {
  const api = { "x-api-key": f.attacker.key, "content-type": "application/json" };
  const render = (id: string) => `/api/v1/templates/${id}/render`;
  // 29 levels of arrays around 4.9 million zeros: about 9.8 MB, under the 10 MB body cap.
  const zeros = 4_900_000;
  const nested = `{"variables":{"n":${"[".repeat(29)}${"0,".repeat(zeros - 1)}0${"]".repeat(29)}}}`;
  let bomb = "1";
  for (let depth = 0; depth < 23; depth++) bomb = `(a: number, b = ${bomb}) => 1`;
  const bombSource = `const x = ${bomb};\nexport default function Bomb() { return null; }\n`;
  // Issue 43: 700,000 object keys, about 8 MB (JSON.parse takes 40 to 70 times as long per key as per array item).
  const manyKeys = `{"variables":{${Array.from({ length: 700_000 }, (_, i) => `"k${i}":0`).join(",")}}}`;
  const articles = Array.from({ length: 110_000 }, (_, i) => ({
    title: `Article ${i}`,
    summary: "s",
    url: `https://example.com/${i}`,
  }));
  return [
    {
      name: "long from",
      path: "/api/v1/send",
      headers: api,
      body: JSON.stringify({
        template_id: f.welcomeId,
        to: "reader@example.com",
        subject: "Hi",
        from: `${" ".repeat(5000)}<`,
      }),
    },
    { name: "nested 9.8 MB body", path: render(f.welcomeId), headers: api, body: nested },
    { name: "many_keys", path: render(f.welcomeId), headers: api, body: manyKeys },
    // Just under the 1 MB cap on variables, to a template of the attacker's own that takes any text: rendered in the sandbox.
    {
      name: "1 MB of variables",
      path: render(f.attacker.userTemplateId),
      headers: api,
      body: JSON.stringify({ variables: { name: "x".repeat(999_000) } }),
    },
    {
      name: "compile bomb",
      path: "/api/dashboard/templates/preview",
      headers: { cookie: f.attacker.cookie, "content-type": "application/json" },
      body: JSON.stringify({ code: bombSource, variables: null }),
    },
    {
      name: "110,000 articles",
      path: render(f.attacker.newsletterId),
      headers: api,
      body: JSON.stringify({ variables: { unsubscribeUrl: "https://example.com/u", articles } }),
    },
  ];
}

export type HostileResult = { name: string; status: number | "error"; ms: number };

/** `connections` sending `requests` in turn until stopped; each answer's status and time. */
export function startAttack(
  base: string,
  requests: HostileRequest[],
  connections = 2,
): { stop: () => Promise<HostileResult[]> } {
  const results: HostileResult[] = [];
  let stopping = false;
  let next = 0;
  const attacker = async () => {
    while (!stopping) {
      const request = requests[next++ % requests.length]!;
      const started = performance.now();
      let status: HostileResult["status"];
      try {
        const response = await fetch(base + request.path, {
          method: "POST",
          headers: request.headers,
          body: request.body,
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = "error";
      }
      results.push({ name: request.name, status, ms: performance.now() - started });
    }
  };
  const running = Array.from({ length: connections }, attacker);
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(running);
      return results;
    },
  };
}
