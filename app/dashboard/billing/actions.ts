"use server";
import { redirect } from "next/navigation";
import { getConfig } from "@/lib/core/config";
import { getPaymentProcessor } from "@/lib/billing/payments";
import { isPlanName } from "@/lib/core/plans";
import { formAction, refuse, runAction, type ActionState } from "../_lib/action";

const PAGE = "/dashboard/billing";

export async function changePlanAction(_previous: ActionState, formData: FormData): Promise<ActionState> {
  return formAction(formData, {
    page: PAGE,
    area: "billing",
    input: (form, account) => {
      const plan = form.get("plan");
      const processor = getPaymentProcessor();
      if (!processor)
        return refuse<ActionState>({
          status: "error",
          message: "Plan changes are not available on this deployment yet.",
        });
      if (!isPlanName(plan) || plan === account.plan) return refuse<ActionState>({ status: "idle" });
      return { processor, plan };
    },
    run: async (account, { processor, plan }) => {
      const outcome = await processor.startPlanChange({
        accountId: account.id,
        plan,
        returnUrl: `${getConfig().siteUrl}${PAGE}`,
      });
      // To the processor's checkout, which comes back to Billing.
      if (!outcome.completed) redirect(outcome.redirectUrl);
      return outcome;
    },
    revalidate: [["/dashboard", "layout"]],
    done: (outcome): ActionState => ({ status: "success", message: `You're on the ${outcome.plan} plan now.` }),
  });
}

export async function openCustomerPortalAction(): Promise<void> {
  return runAction(undefined, {
    page: PAGE,
    area: "billing",
    input: () => undefined,
    run: async (account) => {
      const processor = getPaymentProcessor();
      return processor
        ?.customerPortalUrl?.({ accountId: account.id, returnUrl: `${getConfig().siteUrl}${PAGE}` })
        .catch(() => null);
    },
    refused: (error) => {
      throw error;
    },
    done: (url) => redirect(url ?? `${PAGE}?portal=unavailable`),
  });
}
