import * as React from "react";
import Welcome, { type WelcomeProps } from "../../welcome";

/** The welcome email in fr, for React Email's preview server (npm run email). */
export default function WelcomeFr(props: WelcomeProps) {
  return <Welcome {...props} />;
}

WelcomeFr.PreviewProps = {
  ...Welcome.PreviewProps,
  locale: "fr",
  userName: "Camille",
  companyAddress: "Acme SAS, 8 rue de la Paix, 75002 Paris",
} satisfies WelcomeProps;
