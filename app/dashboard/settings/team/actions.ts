"use server";
import { redirect } from "next/navigation";
import { idSchema, inviteSchema, roleSchema } from "@/lib/teams/schemas";
import { changeRole, inviteMember, leaveTeam, removeTeamMember, revokeTeamInvitation } from "@/lib/teams/service";
import { field, fieldMessages, formAction, refuse, type ActionState } from "../../_lib/action";

const PAGE = "/dashboard/settings/team";

/** A form's id field (a member's person id or an invitation's id), or its refusal. */
function idOf(form: FormData) {
  const parsed = idSchema.safeParse(field(form, "id"));
  return parsed.success
    ? parsed.data
    : refuse<ActionState>({ status: "error", message: parsed.error.issues[0].message });
}

export async function inviteMemberAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    input: (form) => {
      const values = { email: field(form, "email"), role: field(form, "role", "member") };
      const parsed = inviteSchema.safeParse(values);
      if (!parsed.success) {
        const { issues } = parsed.error;
        return refuse<ActionState>({
          status: "error",
          message: issues[0].message,
          fields: fieldMessages(issues),
          values,
        });
      }
      return parsed.data;
    },
    run: (account, invitation) => inviteMember(account, invitation),
    revalidate: [PAGE],
    done: ({ delivery }, { email }) => ({
      status: "success",
      message:
        delivery === "inbox"
          ? `Invitation sent to ${email}.`
          : `No email provider is configured, so the invitation link for ${email} was printed in the terminal running the app.`,
    }),
  });
}

export async function revokeInvitationAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    input: idOf,
    run: (account, id) => revokeTeamInvitation(account, id),
    revalidate: [PAGE],
    done: (): ActionState => ({ status: "success", message: "Invitation revoked: its link no longer works." }),
  });
}

export async function changeRoleAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    input: (form) => {
      const id = idOf(form);
      const role = roleSchema.safeParse(field(form, "role"));
      if (typeof id !== "string") return id;
      if (!role.success) return refuse<ActionState>({ status: "error", message: role.error.issues[0].message });
      return { id, role: role.data };
    },
    run: (account, { id, role }) => changeRole(account, id, role),
    revalidate: [PAGE],
    done: (_result, { role }) => ({ status: "success", message: `Role changed to ${role}.` }),
  });
}

export async function removeMemberAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    input: idOf,
    run: (account, id) => removeTeamMember(account, id),
    revalidate: [PAGE],
    done: (): ActionState => ({ status: "success", message: "Member removed: they no longer reach this team." }),
  });
}

export async function leaveTeamAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    input: () => null,
    run: (account) => leaveTeam(account),
    // The person's next request opens another of their teams (or the page offering to create one).
    done: () => redirect("/dashboard"),
  });
}
