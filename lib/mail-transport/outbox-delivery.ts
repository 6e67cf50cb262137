/**
 * What the embedded outbox reports after it "sends" a message, as a provider would: delivered, except that a recipient
 * at the reserved domain bounce.test bounces (a hard bounce) and one at complaint.test complains, so the whole flow
 * can be tried without a network. A bounce wins over a complaint.
 */
export const OUTBOX_BOUNCE_DOMAIN = "bounce.test";
export const OUTBOX_COMPLAINT_DOMAIN = "complaint.test";

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

function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}
