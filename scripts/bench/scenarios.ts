import type { Fixture } from "./fixture";
import { hostileRequests, noisyNeighbourRequests, type HostileRequest } from "./hostile";
import { METRICS_EMAILS } from "./metrics";
import { hangingEndpointRequests, SUBSCRIBED_ENDPOINTS } from "./webhooks";

export type Scenario = {
  name: string;
  description: string;
  method: "GET" | "POST";
  path: (f: Fixture) => string;
  auth: boolean;
  /** The API key its requests carry, when not the bench user's. */
  apiKey?: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  /**
   * The target: throughput as a share of bare's, on Node 20 and on Node 24. Node 24 serves bare about 1.7× as fast, so
   * every scenario is faster there yet a smaller share of bare.
   */
  target?: { node20: number; node24: number };
  /** Requests sent by two more connections, in turn, while the scenario's load is measured. */
  hostile?: (f: Fixture) => HostileRequest[];
  /** Latency targets instead of a throughput one: p99 of the scenario's own requests, and the slowest hostile answer. */
  latencyTarget?: { p99Ms: number; hostileMaxMs: number };
  /** Connections sending the hostile requests (two when not given). */
  hostileConnections?: number;
  /** Connections sending the scenario's own requests, when not --connections. */
  connections?: number;
  /**
   * A floor on the wait of the scenario's own requests: their p97.5 latency, which bounds their wait for a worker at
   * p95 (autocannon reports no p95).
   */
  waitFloor?: { p97_5Ms: number; meaning: string };
  /** Emails each request sends: its emails per second are reported against `send`'s. */
  emailsPerRequest?: number;
  /** A floor on its throughput as a share of `send`'s, measured in the same run. */
  sendShareFloor?: number;
  /** A floor on its throughput as a share of `render_user`'s, measured in the same run. */
  renderUserShareFloor?: number;
  /** A floor on the webhook deliveries per second its receiver takes during its windows. */
  webhookDeliveriesFloor?: number;
};

const BATCH_SIZE = 10;

const sendBody = (f: Fixture, from: string) => ({
  template_id: f.welcomeId,
  from,
  to: "reader@example.com",
  subject: "Welcome to Letterpress",
  variables: { userName: "Ada" },
});

// Add a scenario here and it is measured, printed and reported in the JSON line.
export const SCENARIOS: Scenario[] = [
  {
    name: "bare",
    description: "GET /api/health (no database, no auth)",
    method: "GET",
    path: () => "/api/health",
    auth: false,
  },
  {
    name: "library",
    description: "GET /api/v1/library",
    method: "GET",
    path: () => "/api/v1/library",
    auth: true,
    target: { node20: 0.6, node24: 0.9 },
  },
  {
    name: "render_catalogue",
    description: "POST /api/v1/templates/{welcome}/render",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.welcomeId}/render`,
    auth: true,
    target: { node20: 0.5, node24: 0.45 },
    body: () => ({ variables: { userName: "Ada", productName: "Letterpress" } }),
  },
  {
    name: "render_user",
    description: "POST /api/v1/templates/{user template}/render (sandboxed)",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.userTemplateId}/render`,
    auth: true,
    target: { node20: 0.35, node24: 0.35 },
    body: () => ({ variables: { name: "Ada" } }),
  },
  {
    name: "render_user_localized",
    description: "POST /api/v1/templates/{user template with next-intl and messages/*.json}/render in fr (sandboxed)",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.localizedTemplateId}/render`,
    auth: true,
    renderUserShareFloor: 0.9,
    body: () => ({ variables: { name: "Ada", count: 3, shippedAt: "2026-03-01T23:30:00Z" }, locale: "fr" }),
  },
  {
    name: "render_user_components",
    description: "POST /api/v1/templates/{render_user's template, its heading and text two shared components}/render",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.componentsTemplateId}/render`,
    auth: true,
    renderUserShareFloor: 0.9,
    body: () => ({ variables: { name: "Ada" } }),
  },
  {
    name: "render_user_100",
    description: "POST /api/v1/templates/{user template of 100 versions}/render (its published version 100)",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.versionedTemplateId}/render`,
    auth: true,
    target: { node20: 0.35, node24: 0.35 },
    body: () => ({ variables: { name: "Ada" } }),
  },
  {
    name: "render_user_v1",
    description: 'POST /api/v1/templates/{user template of 100 versions}/render with "version": 1',
    method: "POST",
    path: (f) => `/api/v1/templates/${f.versionedTemplateId}/render`,
    auth: true,
    target: { node20: 0.35, node24: 0.35 },
    body: () => ({ version: 1, variables: { name: "Ada" } }),
  },
  {
    name: "render_tailwind",
    description: "POST /api/v1/templates/{user template with <Tailwind>}/render (sandboxed)",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.tailwindTemplateId}/render`,
    auth: true,
    target: { node20: 0.25, node24: 0.2 },
    body: () => ({ variables: { name: "Ada", plan: "Pro" } }),
  },
  {
    name: "send",
    description: "POST /api/v1/send (embedded outbox)",
    method: "POST",
    path: () => "/api/v1/send",
    auth: true,
    target: { node20: 0.35, node24: 0.3 },
    body: (f) => sendBody(f, f.sendFrom),
  },
  {
    // Issue 47: the same send from an account whose three endpoints hear every email event. Its events and their
    // deliveries are made in the send's transaction and after its answer; the deliveries per second the receiver took
    // during its windows are reported beside it.
    name: "send_webhooks",
    description: `POST /api/v1/send (embedded outbox) from an account with ${SUBSCRIBED_ENDPOINTS} endpoints hearing every email event`,
    method: "POST",
    path: () => "/api/v1/send",
    auth: true,
    apiKey: (f) => f.subscriber.key,
    sendShareFloor: 0.95,
    // The first measurement, on a slow day of this machine: 182 a second (docs/performance.md).
    webhookDeliveriesFloor: 100,
    body: (f) => sendBody(f, f.subscriber.sendFrom),
  },
  {
    name: "send_batch",
    description: `POST /api/v1/send/batch of ${BATCH_SIZE} emails (embedded outbox)`,
    method: "POST",
    path: () => "/api/v1/send/batch",
    auth: true,
    emailsPerRequest: BATCH_SIZE,
    body: (f) => ({
      emails: Array.from({ length: BATCH_SIZE }, (_, i) => ({
        template_id: f.welcomeId,
        from: f.sendFrom,
        to: `reader-${i}@example.com`,
        subject: "Welcome to Letterpress",
        variables: { userName: "Ada" },
      })),
    }),
  },
  {
    name: "isolation",
    description: "GET /api/v1/library while two more connections send the worst inputs in turn",
    method: "GET",
    path: () => "/api/v1/library",
    auth: true,
    hostile: hostileRequests,
    latencyTarget: { p99Ms: 150, hostileMaxMs: 2000 },
  },
  {
    // Issue 43: one account's renders that each ran to the deadline held every sandbox worker, and another account's
    // renders of its own template, about 12 ms, took 1.2 to 2.75 s.
    name: "noisy_neighbour",
    description:
      "POST /api/v1/templates/{user template}/render, 4 connections, while another account's 6 render a template that runs to its deadline",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.userTemplateId}/render`,
    auth: true,
    body: () => ({ variables: { name: "Ada" } }),
    // A few renders at a time: with --connections' 20 the renders would mostly wait for one another.
    connections: 4,
    hostile: noisyNeighbourRequests,
    hostileConnections: 6,
    waitFloor: { p97_5Ms: 250, meaning: "so a p95 wait for a worker within it" },
  },
  ...(["day", "template"] as const).map((groupBy): Scenario => ({
    // Issue 51: an account with a million emails in the range gets its metrics within 500 ms at p95.
    name: `metrics_${groupBy}`,
    description: `GET /api/v1/metrics?group_by=${groupBy} (the last 30 days) of an account with ${METRICS_EMAILS.toLocaleString("en-US")} emails in them, 2 connections`,
    method: "GET",
    path: () => `/api/v1/metrics?group_by=${groupBy}`,
    auth: true,
    apiKey: (f) => f.metricsKey ?? "",
    connections: 2,
    waitFloor: { p97_5Ms: 500, meaning: "so p95 within it" },
  })),
  {
    // Issue 47: a slow or hanging endpoint delays no other account's requests.
    name: "webhooks_hanging",
    description:
      "GET /api/v1/library while another account sends emails whose events go to an endpoint that never answers",
    method: "GET",
    path: () => "/api/v1/library",
    auth: true,
    hostile: hangingEndpointRequests,
    latencyTarget: { p99Ms: 150, hostileMaxMs: 2000 },
  },
];
