/**
 * What the embedded outbox reports after it "sends" a message, as a provider would: delivered, except that a recipient
 * at the reserved domain bounce.test bounces (a hard bounce) and one at complaint.test complains, so the whole flow
 * can be tried without a network. A bounce wins over a complaint. A delivered message to opened.test is then opened,
 * and one to clicked.test opened and its first link clicked (outboxEngagementEvents), as tracking would report.
 */
export const OUTBOX_BOUNCE_DOMAIN = "bounce.test";
export const OUTBOX_COMPLAINT_DOMAIN = "complaint.test";
export const OUTBOX_OPEN_DOMAIN = "opened.test";
export const OUTBOX_CLICK_DOMAIN = "clicked.test";

export type OutboxDeliveryEvent =
  | { type: "delivered"; detail: null }
  | { type: "bounced"; detail: { bounce_type: "hard"; recipient: string; message: string } }
  | { type: "complained"; detail: { recipient: string; message: string } };

export function outboxDeliveryEvent(recipients: string[]): OutboxDeliveryEvent {
  const bounced = recipients.find((address) => domainOf(address) === OUTBOX_BOUNCE_DOMAIN);
  if (bounced !== undefined) {
    return {
      type: "bounced",
      detail: {
        bounce_type: "hard",
        recipient: bounced,
        message: `${bounced} does not exist (a hard bounce: addresses @${OUTBOX_BOUNCE_DOMAIN} always bounce)`,
      },
    };
  }
  const complained = recipients.find((address) => domainOf(address) === OUTBOX_COMPLAINT_DOMAIN);
  if (complained !== undefined) {
    return {
      type: "complained",
      detail: {
        recipient: complained,
        message: `${complained} marked the email as spam (addresses @${OUTBOX_COMPLAINT_DOMAIN} always complain)`,
      },
    };
  }
  return { type: "delivered", detail: null };
}

export type OutboxEngagementEvent = { type: "opened"; detail: null } | { type: "clicked"; detail: { link: string } };

/** A message's first link: the first http(s) href of its HTML, read in one pass (bounded: no backtracking). */
const FIRST_LINK = /\bhref="(https?:\/\/[^"]{1,2048})"/i;

/**
 * What a delivered message's recipients at opened.test and clicked.test do next, in order: opened, then (clicked.test)
 * clicked on its first link; nothing when the message has no link to click.
 */
export function outboxEngagementEvents(recipients: string[], html: string | null): OutboxEngagementEvent[] {
  const domains = new Set(recipients.map(domainOf));
  const clicks = domains.has(OUTBOX_CLICK_DOMAIN);
  if (!clicks && !domains.has(OUTBOX_OPEN_DOMAIN)) return [];
  const opened: OutboxEngagementEvent = { type: "opened", detail: null };
  const link = clicks ? FIRST_LINK.exec(html ?? "")?.[1] : undefined;
  return link === undefined ? [opened] : [opened, { type: "clicked", detail: { link: decodeEntities(link) } }];
}

/** An attribute's text as the reader's client follows it: React writes & as &amp; in an href. */
function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, "&");
}

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}
