import * as React from "react";
import Welcome, { type WelcomeProps } from "../../welcome";

/** The welcome email in pt-BR, for React Email's preview server (npm run email). */
export default function WelcomePtBr(props: WelcomeProps) {
  return <Welcome {...props} />;
}

WelcomePtBr.PreviewProps = {
  ...Welcome.PreviewProps,
  locale: "pt-BR",
  userName: "João",
  companyAddress: "Acme Ltda., Rua Oscar Freire 379, São Paulo - SP",
} satisfies WelcomeProps;
