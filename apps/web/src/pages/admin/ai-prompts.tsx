import { unwrap, type Schema } from '@social/sdk';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useAction } from '../../api/use-action';
import { useQuery } from '../../api/use-query';
import { useApi } from '../../session/session';
import { formatDateTime } from '../../ui/format';
import { ProblemMessage, fieldError } from '../../ui/problem-message';
import { SelectField } from '../../ui/select-field';
import { Loading } from '../../ui/states';

type Prompt = Schema<'AIPromptResponse'>;

/** The AI prompts of the catalogue: override one's text, or reset it to its default. */
export function AiPrompts() {
  const api = useApi();
  const prompts = useQuery('ai-prompts', () => unwrap(api.GET('/admin/ai-prompts')));
  const [key, setKey] = useState('');
  const list = prompts.data?.prompts ?? [];
  const prompt = list.find((item) => item.key === key) ?? list[0];
  const replace = (saved: Prompt) =>
    prompts.data && prompts.setData({ ...prompts.data, prompts: list.map((item) => (item.key === saved.key ? saved : item)) });
  return (
    <div className="panel">
      <h2>AI prompts</h2>
      <ProblemMessage error={prompts.error} />
      {prompts.loading && !prompts.data && <Loading />}
      {prompt && (
        <>
          <SelectField label="Prompt" name="key" value={prompt.key} onChange={(event) => setKey(event.target.value)}>
            {list.map((item) => (
              <option key={item.key} value={item.key}>
                {item.key}
                {item.overridden ? ' (changed)' : ''}
              </option>
            ))}
          </SelectField>
          <PromptEditor key={prompt.key} prompt={prompt} onSaved={replace} />
        </>
      )}
    </div>
  );
}

function PromptEditor({ prompt, onSaved }: { prompt: Prompt; onSaved(prompt: Prompt): void }) {
  const api = useApi();
  const id = useId();
  const [value, setValue] = useState(prompt.value);
  useEffect(() => setValue(prompt.value), [prompt.value]);
  const path = { params: { path: { key: prompt.key } } };
  const save = useAction(async () => onSaved(await unwrap(api.PUT('/admin/ai-prompts/{key}', { ...path, body: { value } }))));
  const reset = useAction(async () => onSaved(await unwrap(api.DELETE('/admin/ai-prompts/{key}', path))));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run();
  };
  const message = fieldError(save.error, 'value');
  return (
    <form className="stack" onSubmit={submit}>
      <div className="field">
        <label htmlFor={id}>Text of {prompt.key}</label>
        <textarea
          id={id}
          value={value}
          rows={12}
          maxLength={20_000}
          aria-invalid={message ? true : undefined}
          onChange={(e) => setValue(e.target.value)}
        />
        <p className="hint">
          {prompt.overridden ? `Changed ${formatDateTime(prompt.updated_at)}` : `The default (version ${prompt.default_version})`}
        </p>
      </div>
      <ProblemMessage error={save.error ?? reset.error} />
      <div className="row-actions">
        <button type="submit" className="primary" disabled={save.pending || value === prompt.value}>
          Save prompt
        </button>
        {prompt.overridden && (
          <button type="button" onClick={() => reset.run()} disabled={reset.pending}>
            Reset to the default
          </button>
        )}
      </div>
    </form>
  );
}
