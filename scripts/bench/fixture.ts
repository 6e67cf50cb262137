import { randomUUID } from "node:crypto";
import { LOCAL_SESSION_COOKIE, SESSION_MAX_AGE_SECONDS, createLocalSessionToken } from "@/lib/auth/session";
import { createAccount } from "@/lib/auth/data/accounts";
import { createApiKey } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { addLibraryEntry } from "@/lib/catalogue/data/library";
import { createSession } from "@/lib/auth/data/sessions";
import { createTemplateFromSource, replaceTemplateFromSource } from "@/lib/templates/user-templates";
import { createComponent, updateComponent } from "@/lib/components/service";
import { createMetricsAccount } from "./metrics";
import { log } from "./report";

// What the scenarios' requests name: the bench's account (its key, library, templates and sending domain) and another
// account's, which sends the hostile requests.

export type Fixture = {
  key: string;
  welcomeId: string;
  userTemplateId: string;
  /** The same template as userTemplateId's, in its 100th published version. */
  versionedTemplateId: string;
  tailwindTemplateId: string;
  /** A user template localized as React Email's guide does (next-intl, messages/en.json and fr.json). */
  localizedTemplateId: string;
  /** render_user's template with its heading and its text in two shared components it imports. */
  componentsTemplateId: string;
  sendFrom: string;
  /** Another account, which sends the isolation, noisy_neighbour and webhooks_hanging scenarios' hostile requests. */
  attacker: {
    key: string;
    cookie: string;
    newsletterId: string;
    userTemplateId: string;
    deadlineTemplateId: string;
    sendFrom: string;
  };
  /** A third account, whose endpoints hear its emails' events (send_webhooks). */
  subscriber: { key: string; sendFrom: string };
  /** The metrics scenarios' account's key (a million emails), when they are measured. */
  metricsKey?: string;
};

export const USER_TEMPLATE_SOURCE = `import * as React from "react";
import { Body, Container, Heading, Html, Text } from "@react-email/components";

export default function Hello({ name = "there" }: { name?: string }) {
  return (
    <Html>
      <Body style={{ fontFamily: "sans-serif" }}>
        <Container>
          <Heading>Hello {name}</Heading>
          <Text>This template was written by a user and renders in the sandbox.</Text>
        </Container>
      </Body>
    </Html>
  );
}
`;

/**
 * render_user's template localized as React Email's guide does: createTranslator, a plural and a date, per locale. Its
 * elements are render_user's (a heading and one paragraph), so the two differ by their localization alone.
 */
export const LOCALIZED_TEMPLATE_FILES = {
  "email.tsx": `import { createTranslator } from "next-intl";
import { Body, Container, Heading, Html, Text } from "@react-email/components";

type Props = { name?: string; locale?: string; count?: number; shippedAt?: string };

export default async function Hello({ name = "there", locale = "en", count = 1, shippedAt = "2026-03-01T00:00:00Z" }: Props) {
  const t = createTranslator({ messages: await import(\`./messages/\${locale}.json\`), namespace: "hello", locale });
  return (
    <Html lang={locale}>
      <Body style={{ fontFamily: "sans-serif" }}>
        <Container>
          <Heading>{t("title", { name })}</Heading>
          <Text>
            {t("items", { count })} {t("shipped", { date: new Date(shippedAt) })}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}
`,
  "messages/en.json": JSON.stringify({
    hello: {
      title: "Hello {name}",
      items: "{count, plural, one {# item is} other {# items are}} on their way.",
      shipped: "Shipped on {date, date, long}.",
    },
  }),
  "messages/fr.json": JSON.stringify({
    hello: {
      title: "Bonjour {name}",
      items: "{count, plural, one {# article est en route} other {# articles sont en route}}.",
      shipped: "Expédié le {date, date, long}.",
    },
  }),
};

/** render_user's elements, its heading and its text each a shared component of the account. */
export const BENCH_COMPONENTS = {
  "bench-heading": {
    "index.tsx": `import { Heading } from "@react-email/components";

export default function Greeting({ name }: { name: string }) {
  return <Heading>Hello {name}</Heading>;
}
`,
  },
  "bench-text": {
    "index.tsx": `import { Text } from "@react-email/components";

export default function Note() {
  return <Text>This template was written by a user and renders in the sandbox.</Text>;
}
`,
  },
};

export const COMPONENTS_TEMPLATE_SOURCE = `import * as React from "react";
import { Body, Container, Html } from "@react-email/components";
import Greeting from "@components/bench-heading";
import Note from "@components/bench-text";

export default function Hello({ name = "there" }: { name?: string }) {
  return (
    <Html>
      <Body style={{ fontFamily: "sans-serif" }}>
        <Container>
          <Greeting name={name} />
          <Note />
        </Container>
      </Body>
    </Html>
  );
}
`;

/** A user's template as React Email's examples write them: Tailwind with pixelBasedPreset, responsive classes. */
const TAILWIND_TEMPLATE_SOURCE = `import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Tailwind, Text, pixelBasedPreset } from "@react-email/components";

export default function Welcome({ name = "there", plan = "Free" }: { name?: string; plan?: string }) {
  return (
    <Html lang="en">
      <Tailwind config={{ presets: [pixelBasedPreset], theme: { extend: { colors: { brand: "#007291" } } } }}>
        <Head />
        <Preview>Welcome to Acme</Preview>
        <Body className="mx-auto my-auto bg-white px-2 font-sans">
          <Container className="mx-auto my-[40px] max-w-[465px] rounded border border-solid border-[#eaeaea] p-[20px]">
            <Heading className="mx-0 my-[30px] p-0 text-center text-[24px] font-normal text-black sm:text-3xl">
              Welcome, <strong>{name}</strong>
            </Heading>
            <Text className="text-[14px] leading-[24px] text-black">You are on the {plan} plan.</Text>
            <Section className="mt-[32px] mb-[32px] text-center">
              <Button className="rounded bg-brand px-5 py-3 text-center text-[12px] font-semibold text-white no-underline hover:bg-black" href="https://example.com/start">
                Get started
              </Button>
            </Section>
            <Hr className="mx-0 my-[26px] w-full border border-solid border-[#eaeaea]" />
            <Text className="text-[12px] leading-[24px] text-[#666666]">
              Sent by <Link className="text-blue-600 no-underline" href="https://example.com">Acme</Link>.
            </Text>
          </Container>
        </Body>
      </Tailwind>
    </Html>
  );
}
`;

/** The attacker's template of the noisy_neighbour scenario: on its PreviewProps it renders (so it saves), asked to it loops. */
const DEADLINE_TEMPLATE_SOURCE = `import { Html, Text } from "@react-email/components";

export default function Loop({ mode = "once" }: { mode?: string }) {
  while (mode === "loop") {}
  return <Html><Text>Looped {mode}</Text></Html>;
}

Loop.PreviewProps = { mode: "once" };
`;

export async function createFixture({ metrics }: { metrics: boolean }): Promise<Fixture> {
  // A paid plan has no API call quota, so the quota never stops the bench.
  const account = await createAccount({ email: `bench-${randomUUID()}@example.com`, plan: "monthly" });
  const { key } = await createApiKey(account.id, { name: "bench" });
  for (const slug of ["welcome", "verify-email", "receipt", "newsletter", "team-invite"]) {
    await addLibraryEntry(account.id, slug, { processor: "bench" });
  }
  const [welcome] = await getDb()<
    { id: string }[]
  >`select id from templates where slug = 'welcome' and owner_account_id is null`;
  const sendFrom = await senderOf(account.id);
  const userTemplate = await createTemplateFromSource(account.id, {
    name: "Bench hello",
    description: "bench",
    code: USER_TEMPLATE_SOURCE,
  });
  // Versions 1 to 100, each its own source: a render, by default or by number, reads one of them, never the others.
  const versioned = await createTemplateFromSource(account.id, {
    name: "Bench versions",
    description: "bench",
    code: USER_TEMPLATE_SOURCE,
  });
  for (let version = 2; version <= 100; version++) {
    await replaceTemplateFromSource(account.id, versioned.id, {
      name: "Bench versions",
      description: "bench",
      code: `${USER_TEMPLATE_SOURCE}\n// version ${version}\n`,
    });
  }
  const tailwindTemplate = await createTemplateFromSource(account.id, {
    name: "Bench Tailwind",
    description: "bench",
    code: TAILWIND_TEMPLATE_SOURCE,
  });
  const localizedTemplate = await createTemplateFromSource(account.id, {
    name: "Bench localized",
    description: "bench",
    files: LOCALIZED_TEMPLATE_FILES,
    entry: "email.tsx",
  });
  for (const [name, files] of Object.entries(BENCH_COMPONENTS)) await createComponent(account.id, { name, files });
  const componentsTemplate = await createTemplateFromSource(account.id, {
    name: "Bench components",
    description: "bench",
    code: COMPONENTS_TEMPLATE_SOURCE,
  });
  log(
    `  Bench user ${account.person.email} on the monthly plan, 5 catalogue templates and 5 own templates (one of 100 versions, one of two shared components) in the library`,
  );
  // Its own paid plan too: a free plan's quota would answer its hostile requests with a quick 429.
  const attacker = await createAccount({ email: `bench-attacker-${randomUUID()}@example.com`, plan: "monthly" });
  const newsletter = await addLibraryEntry(attacker.id, "newsletter", { processor: "bench" });
  await addLibraryEntry(attacker.id, "welcome", { processor: "bench" });
  const attackerTemplate = await createTemplateFromSource(attacker.id, {
    name: "Attacker hello",
    description: "bench",
    code: USER_TEMPLATE_SOURCE,
  });
  const deadlineTemplate = await createTemplateFromSource(attacker.id, {
    name: "Attacker loop",
    description: "bench",
    code: DEADLINE_TEMPLATE_SOURCE,
  });
  return {
    key,
    welcomeId: welcome.id,
    userTemplateId: userTemplate.id,
    versionedTemplateId: versioned.id,
    tailwindTemplateId: tailwindTemplate.id,
    localizedTemplateId: localizedTemplate.id,
    componentsTemplateId: componentsTemplate.id,
    sendFrom,
    attacker: {
      key: (await createApiKey(attacker.id, { name: "bench attacker" })).key,
      cookie: `${LOCAL_SESSION_COOKIE}=${await attackerSessionToken(attacker.person.id)}`,
      newsletterId: newsletter.template_id,
      userTemplateId: attackerTemplate.id,
      deadlineTemplateId: deadlineTemplate.id,
      sendFrom: await senderOf(attacker.id),
    },
    subscriber: await createSubscriber(),
    ...(metrics && { metricsKey: await createMetricsAccount(log) }),
  };
}

/** A verified sending domain of the account's and its sender. A domain belongs to one account: each gets its own. */
async function senderOf(accountId: string): Promise<string> {
  const domain = await addSendingDomain(accountId, {
    domain: `bench-${accountId.slice(0, 8)}.example.com`,
    verified: true,
  });
  return domain.default_sender ?? `hello@${domain.domain}`;
}

/** The send_webhooks account: the bench user's plan, welcome in its library; its endpoints are made once serving. */
async function createSubscriber(): Promise<Fixture["subscriber"]> {
  const account = await createAccount({ email: `bench-subscriber-${randomUUID()}@example.com`, plan: "monthly" });
  await addLibraryEntry(account.id, "welcome", { processor: "bench" });
  return {
    key: (await createApiKey(account.id, { name: "bench subscriber" })).key,
    sendFrom: await senderOf(account.id),
  };
}

/** A signed-in session, as the sign-in form would make it. */
async function attackerSessionToken(personId: string): Promise<string> {
  const session = await createSession(personId, SESSION_MAX_AGE_SECONDS);
  return createLocalSessionToken({ personId, sessionId: session.id, expiresAt: session.expires_at });
}

/**
 * What a component update with 20 dependents costs (each compiled and trial-rendered, then all published in one
 * transaction), in-process on a fresh account: the median of 3 updates, in ms.
 */
export async function measureComponentUpdate(
  dependents = 20,
): Promise<{ dependents: number; medianMs: number; runsMs: number[] }> {
  const account = await createAccount({ email: `bench-components-${randomUUID()}@example.com`, plan: "monthly" });
  const footer = (n: number) => ({
    "index.tsx": `export default function Footer() { return <small>Acme, version ${n}</small>; }\n`,
  });
  await createComponent(account.id, { name: "footer", files: footer(1) });
  for (let i = 0; i < dependents; i++) {
    await createTemplateFromSource(account.id, {
      name: `Dependent ${i}`,
      description: "bench",
      code: `import Footer from "@components/footer";\nexport default function E({ name = "Ada" }: { name?: string }) { return <div><p>Hi {name}, ${i}</p><Footer /></div>; }\n`,
    });
  }
  const runsMs: number[] = [];
  for (let n = 2; n <= 4; n++) {
    const started = performance.now();
    const { republished } = await updateComponent(account.id, "footer", { files: footer(n) }, null);
    runsMs.push(Math.round(performance.now() - started));
    if (republished.length !== dependents) throw new Error(`the update republished ${republished.length} templates`);
  }
  return { dependents, medianMs: [...runsMs].sort((a, b) => a - b)[1], runsMs };
}
