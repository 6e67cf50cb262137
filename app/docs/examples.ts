import { CLIENT_METHODS } from "letterpress";

const TEMPLATE_BODY = `{
    "name": "Welcome",
    "files": {
      "email.tsx": "import { Html } from \\"@react-email/components\\";\\nimport { Footer } from \\"./components/footer\\";\\nexport default function Welcome() { return <Html><Footer /></Html>; }\\n",
      "components/footer.tsx": "export function Footer() { return <p>The Acme team</p>; }\\n"
    }
  }`;

const COMPONENT_FILES = `{
      "index.tsx": "import { Text } from \\"@react-email/components\\";\\nexport default function Footer() { return <Text>Acme, 1 Main St</Text>; }\\n"
    }`;

/** The examples' request bodies by operationId: JSON, which curl sends as it is and TypeScript reads as an object. */
export const EXAMPLE_BODIES: Record<string, string> = {
  addToLibrary: `{ "template_id": "welcome" }`,
  createTemplate: TEMPLATE_BODY,
  replaceTemplate: TEMPLATE_BODY,
  setTemplateAlias: `{ "alias": "welcome" }`,
  createComponent: `{
    "name": "footer",
    "files": ${COMPONENT_FILES}
  }`,
  updateComponent: `{
    "files": ${COMPONENT_FILES}
  }`,
  createDomain: `{ "name": "mail.example.com" }`,
  updateDomain: `{ "open_tracking": true, "click_tracking": true }`,
  renderTemplate: `{ "variables": { "userName": "Ada" }, "format": "html", "plain_text": true }`,
  sendEmail: `{
    "template_id": "<template id>",
    "to": "ada@example.com",
    "subject": "Welcome aboard",
    "variables": { "userName": "Ada" }
  }`,
  createWebhook: `{ "url": "https://api.example.com/letterpress-events", "events": ["email.delivered", "email.bounced"] }`,
  updateWebhook: `{ "enabled": false }`,
  sendBatch: `{
    "emails": [
      { "template_id": "<template id>", "to": "ada@example.com", "subject": "Welcome, Ada" },
      { "template_id": "<template id>", "to": "grace@example.com", "subject": "Welcome, Grace" }
    ]
  }`,
};

/** What stands for a path parameter in the examples. */
function pathArgument(path: string, name: string): string {
  if (name === "n") return "1";
  if (name === "email") return JSON.stringify("ada@example.com");
  if (name === "delivery_id") return JSON.stringify("<delivery id>");
  if (path.startsWith("/webhooks/")) return JSON.stringify("<webhook id>");
  if (path.startsWith("/components/")) return JSON.stringify("footer");
  if (path.startsWith("/domains/")) return JSON.stringify("<domain id>");
  return JSON.stringify(path.startsWith("/emails/") ? "<email id>" : "<template id>");
}

/**
 * The operation as a call of the letterpress client: its method (the client's own table, CLIENT_METHODS), then its path
 * parameters and its example body, as the method takes them.
 */
export function clientExample(operationId: keyof typeof CLIENT_METHODS, path: string): string {
  const body = EXAMPLE_BODIES[operationId];
  const args = [
    ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => pathArgument(path, name)),
    // The bodies are indented for curl's -d: one level less here.
    ...(body ? [body.replaceAll("\n  ", "\n")] : []),
  ];
  return `await lp.${CLIENT_METHODS[operationId]}(${args.join(", ")});`;
}
