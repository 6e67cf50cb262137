import "server-only";
import { findOnboardingState, setAccountPlan } from "@/lib/auth/data/accounts";

// What other domains use of an account: the plan billing sets, the onboarding state the dashboard shows.
export { findOnboardingState, setAccountPlan };
export type { OnboardingState } from "@/lib/auth/data/accounts";
