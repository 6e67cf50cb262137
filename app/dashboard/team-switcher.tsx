"use client";

import { useActionState, useId } from "react";
import { SubmitButton } from "../_components/submit-button";
import { FormStatus } from "./_components/form-status";
import { createTeamAction, switchTeamAction } from "./teams/actions";

/** In the navigation: the person's teams, the current one chosen, and "Create a team". */
export function TeamSwitcher({ teams, current }: { teams: { id: string; name: string }[]; current: string }) {
  const [switched, switchTeam] = useActionState(switchTeamAction, { status: "idle" });
  const [created, createTeam] = useActionState(createTeamAction, { status: "idle" });
  // The navigation is rendered twice (the sidebar and the small screens' menu): ids of their own.
  const id = useId();
  return (
    <div className="team-switcher stack-sm">
      {teams.length > 1 && (
        <form action={switchTeam} className="row">
          <label className="sr-only" htmlFor={`${id}-team`}>
            Team
          </label>
          <select id={`${id}-team`} name="team" defaultValue={current} className="input input-sm">
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
          <SubmitButton className="btn btn-ghost btn-sm">Switch</SubmitButton>
          <FormStatus state={switched} />
        </form>
      )}
      <details>
        <summary className="small">Create a team</summary>
        <form action={createTeam} className="row">
          <label className="sr-only" htmlFor={`${id}-new-team`}>
            New team
          </label>
          <input
            id={`${id}-new-team`}
            name="name"
            className="input input-sm"
            maxLength={100}
            required
            defaultValue={created.values?.name}
            placeholder="e.g. Operations"
          />
          <SubmitButton className="btn btn-ghost btn-sm">Create</SubmitButton>
          <FormStatus state={created} />
        </form>
      </details>
    </div>
  );
}
