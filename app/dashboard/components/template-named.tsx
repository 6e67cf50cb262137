import Link from "next/link";
import type { NamedTemplate } from "./actions";

/** The templates that import a component, as its page lists them. */
export type UsedBy = { template_id: string; name: string }[];

/**
 * A template an answer names (a broken one's error, a refused delete's importer), linked to its page: its name is the
 * link when the message starts with it ("Receipt: …", "Receipt imports …"), else the whole message.
 */
export function TemplateNamed({ named, usedBy }: { named: NamedTemplate; usedBy: UsedBy }) {
  if (named.template_id === null) return <>{named.message}</>;
  const href = `/dashboard/library/${named.template_id}`;
  const name = usedBy.find((template) => template.template_id === named.template_id)?.name;
  if (name === undefined || !named.message.startsWith(name)) return <Link href={href}>{named.message}</Link>;
  return (
    <>
      <Link href={href}>{name}</Link>
      {named.message.slice(name.length)}
    </>
  );
}
