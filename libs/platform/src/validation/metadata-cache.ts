import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type ValidationMetadata = Parameters<Storage['addValidationMetadata']>[0];

const CACHED = Symbol.for('social.validation-metadata-cached');

/**
 * class-validator looks a class's rules up on every validation: it tests the class with `instanceof` against every
 * class that has rules (hundreds of contract DTOs), then groups them by property. That was a third of a request's
 * validation in the gateway's profile. Rules are declared when their classes are defined, so each class's answer is
 * kept and computed again only after a new rule is registered. The storage is process-global; patched once.
 */
export function cacheValidationMetadata(): void {
  const storage = getMetadataStorage() as Storage & { [CACHED]?: true };
  if (storage[CACHED]) return;
  storage[CACHED] = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const register = storage.addValidationMetadata.bind(storage);
  let answers = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  let groupings = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();

  storage.addValidationMetadata = (metadata) => {
    register(metadata);
    answers = new WeakMap();
    groupings = new WeakMap();
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // Per class: its schema name (unused by our contracts), the options that filter rules, the groups asked for.
    const key = `${schema}|${always}|${strictGroups}|${groups?.join(',') ?? ''}`;
    let ofTarget = answers.get(target);
    if (!ofTarget) answers.set(target, (ofTarget = new Map()));
    let found = ofTarget.get(key);
    if (!found) ofTarget.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let grouped = groupings.get(metadata);
    if (!grouped) groupings.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
}
