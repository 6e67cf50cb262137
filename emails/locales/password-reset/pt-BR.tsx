import * as React from "react";
import PasswordReset, { type PasswordResetProps } from "../../password-reset";

/** The password-reset email in pt-BR, for React Email's preview server (npm run email). */
export default function PasswordResetPtBr(props: PasswordResetProps) {
  return <PasswordReset {...props} />;
}

PasswordResetPtBr.PreviewProps = {
  ...PasswordReset.PreviewProps,
  locale: "pt-BR",
  userName: "João",
  requestedFrom: "Firefox no Windows, Rio de Janeiro",
  companyAddress: "Acme Ltda., Rua Oscar Freire 379, São Paulo - SP",
} satisfies PasswordResetProps;
