import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as getLibrary } from "@/app/api/v1/library/route";
import { POST as send } from "@/app/api/v1/send/route";
import { POST as render } from "@/app/api/v1/templates/[id]/render/route";
import { hashApiKey } from "@/lib/api-keys";
import { getDb, type Db } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/db/domains";
import { addToLibrary, auth, call, catalogueId, createUser, sessionCookie, uniqueDomain } from "./support/api";

const holder = globalThis as typeof globalThis & { __letterpressDb?: Db };

/** Every SQL text the app's database client is given from now on, and each text given to `unsafe` (unparameterised). */
function watchSql(): { texts: string[]; unsafeTexts: string[] } {
  const seen = { texts: [] as string[], unsafeTexts: [] as string[] };
  const db = getDb();
  holder.__letterpressDb = new Proxy(db, {
    apply(target, thisArg, args: unknown[]) {
      if (Array.isArray(args[0]) && "raw" in args[0]) seen.texts.push((args[0] as string[]).join("$?"));
      return Reflect.apply(target, thisArg, args);
    },
    get(target, property, receiver) {
      if (property !== "unsafe") return Reflect.get(target, property, receiver);
      return (text: string, ...rest: unknown[]) => {
        seen.unsafeTexts.push(text);
        seen.texts.push(text);
        return (target.unsafe as (...args: unknown[]) => unknown)(text, ...rest);
      };
    },
  });
  return seen;
}

describe("SQL statements", () => {
  it("carry every value of a request as a parameter on the hot paths: no credential, id or message text in SQL text", async () => {
    const user = await createUser("free");
    const domain = uniqueDomain();
    await addSendingDomain(user.accountId, { domain, verified: true });
    await addToLibrary(user, "welcome");
    const welcomeId = await catalogueId("welcome");
    const cookie = await sessionCookie(user.accountId);
    const marker = `marker-${randomUUID()}`;

    const real = getDb();
    const seen = watchSql();
    try {
      const library = await call(getLibrary, "/api/v1/library?limit=7&offset=0", { headers: auth(user) });
      const librarySession = await call(getLibrary, "/api/v1/library", { headers: { cookie } });
      const rendered = await call(render, `/api/v1/templates/${welcomeId}/render`, {
        method: "POST",
        headers: auth(user),
        params: { id: welcomeId },
        body: { variables: { userName: marker } },
      });
      const sent = await call(send, "/api/v1/send", {
        method: "POST",
        headers: auth(user),
        body: { template_id: welcomeId, to: "ann@example.com", subject: marker, variables: { userName: marker } },
      });
      const statuses = [library.status, librarySession.status, rendered.status, sent.status];
      const values = [hashApiKey(user.key), user.accountId, welcomeId, marker, domain];
      const textsHoldingValues = seen.texts.filter((text) => values.some((value) => text.includes(value)));
      expect({ statuses, sawStatements: seen.texts.length >= 5, unsafe: seen.unsafeTexts, textsHoldingValues }).toEqual({
        statuses: [200, 200, 200, 200],
        sawStatements: true,
        unsafe: [],
        textsHoldingValues: [],
      });
    } finally {
      holder.__letterpressDb = real;
    }
  });
});
