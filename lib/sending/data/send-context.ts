import "server-only";
import { getDb } from "@/lib/db/client";
import type { SendingDomain } from "@/lib/sending-domains/service";
import type { Suppression } from "@/lib/suppressions/service";
import { templateRef } from "@/lib/templates/alias";
import type { RenderedVersion, TemplateRecord, VersionChoice } from "@/lib/templates/service";

// What a send reads before rendering, in one round trip. It reads the sending domains', templates' and suppressions'
// tables, yet it is sending's: only a send asks it, and one SQL function reads all three at once.

/** What rendering needs of a template (not its source), in the version rendered. */
export type RenderableTemplate = Pick<
  TemplateRecord,
  "id" | "owner_account_id" | "slug" | "compiled_code" | "variables" | "locales" | "default_locale"
> &
  RenderedVersion;

export type SendContext = { domains: SendingDomain[]; template: RenderableTemplate | null; suppressed: Suppression[] };

type SendContextRow = Partial<RenderableTemplate> & {
  sender_domains: (Omit<SendingDomain, "created_at" | "verified_at"> & {
    created_at: string;
    verified_at: string | null;
  })[];
  suppressed: (Omit<Suppression, "created_at"> & { created_at: string })[];
};

/**
 * What POST /send looks up before rendering, in one round trip (the SQL function `send_context`): the account's
 * sending domains (oldest first, as listSendingDomains), the template (by id or alias) when it is in the account's
 * library (in `version`, as findTemplateForAccount), and which of `recipients` the account has suppressed.
 */
export async function findSendContext(
  accountId: string,
  templateId: string,
  recipients: string[],
  version?: VersionChoice,
): Promise<SendContext> {
  const lowerCased = recipients.map((address) => address.toLowerCase());
  // What can name no template is asked as no template: the domains and suppressions are still read.
  const ref = templateRef(templateId) ?? { id: null, alias: null };
  const number = typeof version === "number" ? version : null;
  const [row] = await getDb()<SendContextRow[]>`
    select * from send_context(${accountId}::uuid, ${ref.id}::uuid, ${ref.alias}::text, ${lowerCased}::text[],
                               ${number}::int, ${version === "draft"}::boolean)`;
  return sendContextFromRow(row);
}

function sendContextFromRow(row: SendContextRow): SendContext {
  const { sender_domains: senderDomains, suppressed, ...template } = row;
  const domains = senderDomains.map((d) => ({
    ...d,
    created_at: new Date(d.created_at),
    verified_at: d.verified_at === null ? null : new Date(d.verified_at),
  }));
  return {
    domains,
    template: template.id ? (template as RenderableTemplate) : null,
    suppressed: suppressed.map((entry) => ({ ...entry, created_at: new Date(entry.created_at) })),
  };
}
