import * as React from "react";
import Welcome, { type WelcomeProps } from "../../welcome";

/** The welcome email in es, for React Email's preview server (npm run email). */
export default function WelcomeEs(props: WelcomeProps) {
  return <Welcome {...props} />;
}

WelcomeEs.PreviewProps = {
  ...Welcome.PreviewProps,
  locale: "es",
  userName: "Lucía",
  companyAddress: "Acme S.L., Paseo de la Castellana 89, 28046 Madrid",
} satisfies WelcomeProps;
