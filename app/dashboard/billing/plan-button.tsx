"use client";
import { useActionState } from "react";
import type { PlanName } from "@/lib/core/plans";
import { SubmitButton } from "../../_components/submit-button";
import type { ActionState } from "../_lib/action";
import { changePlanAction } from "./actions";

export function PlanButton({ plan, label, primary }: { plan: PlanName; label: string; primary: boolean }) {
  const [state, action] = useActionState<ActionState, FormData>(changePlanAction, { status: "idle" });
  return (
    <form action={action} className="stack-sm">
      <input type="hidden" name="plan" value={plan} />
      <SubmitButton className={`btn ${primary ? "btn-primary" : "btn-secondary"} btn-block`} pendingLabel="Switching…">
        {label}
      </SubmitButton>
      {state.status === "error" && (
        <span className="field-error" role="alert">
          {state.message}
        </span>
      )}
      {state.status === "success" && state.message && (
        <span className="hint" role="status">
          {state.message}
        </span>
      )}
    </form>
  );
}
