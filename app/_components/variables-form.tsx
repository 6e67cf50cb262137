"use client";
import type { ValidationDetail } from "@/lib/core/errors";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
  type TextareaHTMLAttributes,
} from "react";
import type { VariableSchema, VariablesSchema } from "@/lib/templates/variables-schema";
import {
  blankItem,
  describeType,
  fieldShape,
  getIn,
  inputId,
  inputText,
  otherVariablesText,
  OTHER_VARIABLES,
  placeErrors,
  setIn,
  valueFromInput,
  withOtherVariables,
  type Choice,
  type FieldShape,
  type Path,
} from "@/lib/dashboard/variables-form";

type Variables = Record<string, unknown>;

type FormContext = {
  value: Variables;
  set: (path: Path, next: unknown) => void;
  replace: (value: Variables, changed: string) => void;
  errorsAt: (key: string) => string[] | undefined;
  /** A JSON input whose text does not parse holds the form back (nothing it says can be sent yet). */
  reportUnparsed: (key: string, unparsed: boolean) => void;
};

const Context = createContext<FormContext | null>(null);

function useForm(): FormContext {
  const context = useContext(Context);
  if (!context) throw new Error("A variables field outside VariablesForm");
  return context;
}

/** The value a field edits, and the setter to change it with. */
function useValueAt(path: Path) {
  const { value, set } = useForm();
  return { current: getIn(value, path), set };
}

/**
 * A form generated from a template's variables schema: an input per variable (text, URL, number, checkbox, select,
 * a fieldset per nested object, repeatable groups for lists, JSON for what has no better input), the API's 400
 * `errors` beside their inputs, and the variables the schema does not declare as JSON. `value` is the `variables`
 * object itself: an empty input leaves its variable out, so the template's default applies. `onChange` names the
 * dotted path that changed; `onValidityChange` says whether every JSON input parses.
 */
export function VariablesForm({
  schema,
  value,
  onChange,
  errors = [],
  onValidityChange,
}: {
  schema: VariablesSchema;
  value: Variables;
  onChange: (value: Variables, changed: string) => void;
  errors?: ValidationDetail[];
  onValidityChange?: (valid: boolean) => void;
}) {
  const [unparsed, setUnparsed] = useState<string[]>([]);
  const placed = useMemo(() => placeErrors(schema, value, errors), [schema, value, errors]);
  const required = new Set(schema.required ?? []);
  const names = Object.keys(schema.properties);

  const set = useCallback(
    (path: Path, next: unknown) => onChange(setIn(value, path, next) as Variables, path.join(".")),
    [value, onChange],
  );
  const reportUnparsed = useCallback((key: string, isUnparsed: boolean) => {
    setUnparsed((current) =>
      isUnparsed === current.includes(key)
        ? current
        : isUnparsed
          ? [...current, key]
          : current.filter((other) => other !== key),
    );
  }, []);
  useEffect(() => {
    onValidityChange?.(unparsed.length === 0);
  }, [unparsed.length, onValidityChange]);

  const context = useMemo<FormContext>(
    () => ({ value, set, replace: onChange, errorsAt: (key) => placed.byPath[key], reportUnparsed }),
    [value, set, onChange, placed, reportUnparsed],
  );

  return (
    <Context.Provider value={context}>
      <div className="var-list">
        {placed.summary.length > 0 && (
          <div className="alert alert-danger" data-testid="variables-error-summary">
            <div>
              <p>The API refused these variables:</p>
              <ul className="small" style={{ margin: "6px 0 0", paddingLeft: 18 }}>
                {placed.summary.map((detail) => (
                  <li key={`${detail.field}:${detail.message}`}>
                    <code>{detail.field}</code>: {detail.message}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        )}
        {names.length === 0 && <p className="muted small">This template declares no variables.</p>}
        {names.map((name) => (
          <Field key={name} schema={schema.properties[name]} path={[name]} label={name} required={required.has(name)} />
        ))}
        {schema.additionalProperties !== false && <OtherVariables schema={schema} />}
      </div>
    </Context.Provider>
  );
}

type FieldProps = { schema: VariableSchema; path: Path; label: string; required: boolean; inList?: boolean };

function Field(props: FieldProps) {
  const shape = useMemo(() => fieldShape(props.schema), [props.schema]);
  switch (shape.kind) {
    case "text":
    case "number":
      return <TextField {...props} shape={shape} />;
    case "boolean":
      return <CheckboxField {...props} />;
    case "select":
      return <SelectField {...props} shape={shape} />;
    case "object":
      return <ObjectFieldset {...props} shape={shape} />;
    case "list":
      return <ListFieldset {...props} shape={shape} />;
    default:
      return <JsonField {...props} nullable={shape.nullable} />;
  }
}

/** The ids and ARIA attributes tying an input to its description and its errors (the API's, and `problem`). */
function useDescription(path: Path, schema: VariableSchema, problem: string | null = null) {
  const { errorsAt } = useForm();
  const id = inputId(path);
  const messages = [...(problem ? [problem] : []), ...(errorsAt(path.join(".")) ?? [])];
  const hintId = schema.description ? `${id}-hint` : undefined;
  const errorId = messages.length > 0 ? `${id}-error` : undefined;
  return {
    id,
    hint: schema.description ? (
      <span id={hintId} className="hint">
        {schema.description}
      </span>
    ) : null,
    error: errorId ? (
      <span id={errorId} className="field-error">
        {messages.join("; ")}
      </span>
    ) : null,
    aria: {
      "aria-describedby": [hintId, errorId].filter(Boolean).join(" ") || undefined,
      "aria-invalid": errorId ? true : undefined,
      "aria-errormessage": errorId,
    },
  };
}

function FieldLabel({ label, schema, required }: { label: string; schema: VariableSchema; required: boolean }) {
  return (
    <span className="row" style={{ gap: 6 }}>
      <span className="var-name">{label}</span>
      <span className="var-type">
        {describeType(schema)}
        {required ? " · required" : ""}
      </span>
    </span>
  );
}

/** An input or select with its label (only for screen readers in a list, whose item says what it is), hint and error. */
function LabelledField({
  id,
  label,
  schema,
  required,
  inList,
  hint,
  error,
  children,
}: Pick<FieldProps, "label" | "schema" | "required" | "inList"> & {
  id: string;
  hint: ReactNode;
  error: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className={inList ? "visually-hidden" : "label"} htmlFor={id}>
        {inList ? label : <FieldLabel label={label} schema={schema} required={required} />}
      </label>
      {children}
      {hint}
      {error}
    </div>
  );
}

/** The text shown for a default in an empty input. */
function placeholderFor(schema: VariableSchema): string | undefined {
  return schema.default === undefined || schema.default === "" ? undefined : `Default: ${inputText(schema.default)}`;
}

/**
 * Text an input keeps of its own while the value it sends differs from it ("1." sends 1, unparsed JSON sends
 * nothing), reset when the value changes from outside (Reset, a removed list item).
 */
function useDraft(value: unknown, format: (value: unknown) => string) {
  const [draft, setDraft] = useState(() => format(value));
  const [sent, setSent] = useState<unknown>(value);
  if (sent !== value && JSON.stringify(sent) !== JSON.stringify(value)) {
    setSent(value);
    setDraft(format(value));
  }
  const update = (text: string, next: unknown) => {
    setDraft(text);
    setSent(next);
  };
  return [draft, update] as const;
}

function TextField({
  schema,
  path,
  label,
  required,
  inList,
  shape,
}: FieldProps & { shape: Extract<FieldShape, { kind: "text" | "number" }> }) {
  const { current, set } = useValueAt(path);
  const [draft, setDraft] = useDraft(current, inputText);
  // What the browser says is wrong with a number as typed, in words; the variable keeps its last good value meanwhile,
  // so the preview goes on following the other fields.
  const [problem, setProblem] = useState<string | null>(null);
  const { id, hint, error, aria } = useDescription(path, schema, problem);
  useUnparsedReport(path.join("."), problem !== null);
  const number = shape.kind === "number" ? shape : null;
  return (
    <LabelledField id={id} label={label} schema={schema} required={required} inList={inList} hint={hint} error={error}>
      <input
        id={id}
        className="input"
        type={shape.kind === "number" ? "number" : shape.inputType}
        step={number ? (number.integer ? 1 : "any") : undefined}
        min={number ? schema.minimum : undefined}
        max={number ? schema.maximum : undefined}
        value={draft}
        placeholder={placeholderFor(schema) ?? (shape.nullable ? "null" : undefined)}
        aria-required={required || undefined}
        {...aria}
        onChange={(event) => {
          const wrong = number && numberProblem(event.target.validity, number.integer, schema);
          if (wrong) {
            setDraft(event.target.value, current);
            setProblem(wrong);
            return;
          }
          const next = valueFromInput(shape, event.target.value, inList);
          setDraft(event.target.value, next);
          setProblem(null);
          set(path, next);
        }}
      />
    </LabelledField>
  );
}

/** What is wrong with a number input's text (its `validity`), as the field says it; null when nothing is. */
function numberProblem(validity: ValidityState, integer: boolean, schema: VariableSchema): string | null {
  if (validity.badInput || (integer && validity.stepMismatch))
    return integer ? "Enter a whole number, such as 3" : "Enter a number, such as 3 or 2.5";
  if (validity.rangeUnderflow) return `Enter ${schema.minimum} or more`;
  if (validity.rangeOverflow) return `Enter ${schema.maximum} or less`;
  return null;
}

function CheckboxField({ schema, path, label, required }: FieldProps) {
  const { current, set } = useValueAt(path);
  const { id, hint, error, aria } = useDescription(path, schema);
  // Not given yet: the box shows the default, which is what the template will use.
  const checked = typeof current === "boolean" ? current : schema.default === true;
  return (
    <div className="field">
      <label className="checkbox" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={checked}
          aria-required={required || undefined}
          {...aria}
          onChange={(event) => set(path, event.target.checked)}
        />
        <FieldLabel label={label} schema={schema} required={required} />
      </label>
      {hint}
      {error}
    </div>
  );
}

function SelectField({
  schema,
  path,
  label,
  required,
  inList,
  shape,
}: FieldProps & { shape: Extract<FieldShape, { kind: "select" }> }) {
  const { current, set } = useValueAt(path);
  const { id, hint, error, aria } = useDescription(path, schema);
  const selected = shape.options.findIndex((option) => option === current);
  const empty = shape.nullable
    ? "null"
    : schema.default !== undefined
      ? `Default (${inputText(schema.default)})`
      : required
        ? "Choose…"
        : "Not set";
  return (
    <LabelledField id={id} label={label} schema={schema} required={required} inList={inList} hint={hint} error={error}>
      <select
        id={id}
        className="select"
        value={selected === -1 ? "" : String(selected)}
        aria-required={required || undefined}
        {...aria}
        onChange={(event) => {
          const index = event.target.value;
          set(path, index === "" ? (shape.nullable ? null : undefined) : (shape.options[Number(index)] as Choice));
        }}
      >
        <option value="">{empty}</option>
        {shape.options.map((option, index) => (
          <option key={index} value={String(index)}>
            {inputText(option)}
          </option>
        ))}
      </select>
    </LabelledField>
  );
}

/** An object's or a list's variables, under a legend naming the variable, with its hint and error. */
function GroupFieldset({
  path,
  schema,
  label,
  required,
  children,
}: Pick<FieldProps, "path" | "schema" | "label" | "required"> & { children: ReactNode }) {
  const { id, hint, error, aria } = useDescription(path, schema);
  return (
    <fieldset className="var-group" id={id} {...aria}>
      <legend>
        <FieldLabel label={label} schema={schema} required={required} />
      </legend>
      {hint}
      {error}
      {children}
    </fieldset>
  );
}

function ObjectFieldset({
  schema,
  path,
  label,
  required,
  shape,
}: FieldProps & { shape: Extract<FieldShape, { kind: "object" }> }) {
  const requiredMembers = new Set(shape.required);
  return (
    <GroupFieldset path={path} schema={schema} label={label} required={required}>
      {Object.entries(shape.properties).map(([name, member]) => (
        <Field key={name} schema={member} path={[...path, name]} label={name} required={requiredMembers.has(name)} />
      ))}
    </GroupFieldset>
  );
}

function ListFieldset({
  schema,
  path,
  label,
  required,
  shape,
}: FieldProps & { shape: Extract<FieldShape, { kind: "list" }> }) {
  const { current, set } = useValueAt(path);
  const items = Array.isArray(current) ? current : [];
  const ofObjects = shape.itemShape.kind === "object";
  return (
    <GroupFieldset path={path} schema={schema} label={label} required={required}>
      {items.map((_, index) => {
        const itemLabel = `${label} ${index + 1}`;
        const remove = (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-label={`Remove ${itemLabel}`}
            onClick={() =>
              set(
                path,
                items.filter((__, other) => other !== index),
              )
            }
          >
            Remove
          </button>
        );
        return ofObjects ? (
          <fieldset key={index} className="var-group var-item">
            <legend className="row-between" style={{ width: "100%" }}>
              <span className="var-name">{itemLabel}</span>
              {remove}
            </legend>
            <ItemMembers schema={shape.items} path={[...path, index]} />
          </fieldset>
        ) : (
          <div key={index} className="var-item-row">
            <Field schema={shape.items} path={[...path, index]} label={itemLabel} required inList />
            {remove}
          </div>
        );
      })}
      <div>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => set(path, [...items, blankItem(shape.items)])}
        >
          Add {ofObjects ? "an item" : "a value"} to {label}
        </button>
      </div>
    </GroupFieldset>
  );
}

/** The members of one object in a list, each its own field. */
function ItemMembers({ schema, path }: { schema: VariableSchema; path: Path }) {
  const shape = fieldShape(schema) as Extract<FieldShape, { kind: "object" }>;
  const required = new Set(shape.required);
  return Object.entries(shape.properties).map(([name, member]) => (
    <Field key={name} schema={member} path={[...path, name]} label={name} required={required.has(name)} />
  ));
}

const formatJson = (value: unknown) => (value === undefined ? "" : JSON.stringify(value, null, 2));

function JsonField({ schema, path, label, required, nullable }: FieldProps & { nullable: boolean }) {
  const { current, set } = useValueAt(path);
  const [draft, setDraft] = useDraft(current, formatJson);
  const [parseError, setParseError] = useState<string | null>(null);
  const { id, hint, error, aria } = useDescription(path, schema, parseError);
  useUnparsedReport(path.join("."), parseError !== null);
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        <FieldLabel label={label} schema={schema} required={required} />
      </label>
      <JsonTextarea
        id={id}
        value={draft}
        placeholder={schema.default === undefined ? (nullable ? "null" : "JSON") : formatJson(schema.default)}
        aria-required={required || undefined}
        {...aria}
        onChange={(event) => {
          const text = event.target.value;
          let next: unknown = nullable ? null : undefined;
          if (text.trim() !== "") {
            try {
              next = JSON.parse(text);
            } catch {
              setDraft(text, current);
              setParseError("This is not valid JSON yet.");
              return;
            }
          }
          setDraft(text, next);
          setParseError(null);
          set(path, next);
        }}
      />
      {hint}
      {error}
    </div>
  );
}

/** Tells the form while a JSON field holds text that does not parse, so it is not submitted meanwhile. */
function useUnparsedReport(key: string, unparsed: boolean) {
  const { reportUnparsed } = useForm();
  useEffect(() => {
    reportUnparsed(key, unparsed);
    return () => reportUnparsed(key, false);
  }, [key, unparsed, reportUnparsed]);
}

/** A textarea for JSON: monospaced, unchecked for spelling, as tall as its text (3 to 10 rows). */
function JsonTextarea({ id, value, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement> & { value: string }) {
  return (
    <textarea
      id={id}
      className="textarea code"
      rows={Math.min(10, Math.max(3, value.split("\n").length))}
      value={value}
      spellCheck={false}
      {...rest}
    />
  );
}

/** Variables the schema does not declare: passed to the template unchanged (and warned about by the API). */
function OtherVariables({ schema }: { schema: VariablesSchema }) {
  const { value, replace, errorsAt } = useForm();
  const shown = otherVariablesText(schema, value);
  const [draft, setDraft] = useState(shown);
  const [synced, setSynced] = useState(shown);
  const [problem, setProblem] = useState<string | null>(null);
  if (shown !== synced) {
    setSynced(shown);
    setDraft(shown);
    setProblem(null);
  }
  useUnparsedReport(OTHER_VARIABLES, problem !== null);
  const errors = errorsAt(OTHER_VARIABLES);
  const id = "other-variables";
  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        Other variables <span className="label-optional">JSON</span>
      </label>
      <JsonTextarea
        id={id}
        value={draft}
        placeholder='{ "name": "value" }'
        aria-describedby={[`${id}-hint`, problem || errors ? `${id}-error` : null].filter(Boolean).join(" ")}
        aria-invalid={problem || errors ? true : undefined}
        aria-errormessage={problem || errors ? `${id}-error` : undefined}
        onChange={(event) => {
          const text = event.target.value;
          setDraft(text);
          const result = withOtherVariables(schema, value, text);
          if (!result.ok) {
            setProblem(result.error);
            return;
          }
          setProblem(null);
          setSynced(otherVariablesText(schema, result.value));
          replace(result.value, OTHER_VARIABLES);
        }}
      />
      <span id={`${id}-hint`} className="hint">
        Variables this template does not declare: they reach it unchanged.
      </span>
      {(problem || errors) && (
        <span id={`${id}-error`} className="field-error">
          {[problem, ...(errors ?? [])].filter(Boolean).join("; ")}
        </span>
      )}
    </div>
  );
}
