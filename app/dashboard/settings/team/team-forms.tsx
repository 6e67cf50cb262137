"use client";
import { useActionState } from "react";
import { SubmitButton } from "../../../_components/submit-button";
import type { ActionState } from "../../_lib/action";
import { FormStatus } from "../../_components/form-status";

type FormActionFn = (previous: ActionState, formData: FormData) => Promise<ActionState>;

/** Settings → Team's invite form: an address and a role. */
export function InviteForm({ action }: { action: FormActionFn }) {
  const [state, formAction] = useActionState(action, { status: "idle" });
  return (
    <form action={formAction} className="row">
      <label className="sr-only" htmlFor="invite-email">
        Email
      </label>
      <input
        id="invite-email"
        name="email"
        type="email"
        required
        placeholder="teammate@example.com"
        defaultValue={state.values?.email}
        aria-invalid={state.fields?.email ? true : undefined}
      />
      <label className="sr-only" htmlFor="invite-role">
        Role
      </label>
      <select id="invite-role" name="role" defaultValue={state.values?.role ?? "member"}>
        <option value="member">Member</option>
        <option value="admin">Admin</option>
      </select>
      <SubmitButton className="btn btn-primary btn-sm">Invite</SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}

/** One button posting hidden fields, with its action's message beside it. */
export function ActionButton({
  action,
  fields,
  label,
  className = "btn btn-secondary btn-sm",
}: {
  action: FormActionFn;
  fields: Record<string, string>;
  label: string;
  className?: string;
}) {
  const [state, formAction] = useActionState(action, { status: "idle" });
  return (
    <form action={formAction} className="row">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <SubmitButton className={className}>{label}</SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}
