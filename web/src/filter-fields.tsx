/** A labelled input of a filter form: the caller holds the value and hears every keystroke. */
export function InputField(props: {
  label: string;
  name: string;
  type: 'text' | 'number' | 'search';
  value: string;
  onValue: (value: string) => void;
  placeholder?: string;
  min?: string;
  step?: string;
}) {
  return (
    <label>
      {props.label}
      <input
        name={props.name}
        // Preact types an input by one literal `type` at a time; these three take the same attributes.
        type={props.type as 'text'}
        value={props.value}
        placeholder={props.placeholder}
        min={props.min}
        step={props.step}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
    </label>
  );
}

/** A labelled menu of ids; `anyLabel` names the empty choice (no filter) when there is one. */
export function SelectField(props: {
  label: string;
  name: string;
  value: string;
  choices: readonly string[];
  onValue: (value: string) => void;
  anyLabel?: string;
}) {
  return (
    <label>
      {props.label}
      <select name={props.name} value={props.value} onChange={(e) => props.onValue(e.currentTarget.value)}>
        {props.anyLabel !== undefined && <option value="">{props.anyLabel}</option>}
        {props.choices.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </label>
  );
}
