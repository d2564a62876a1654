/** An instance setting's override (`instance_settings`): `value` in the clear, or `sealed_value` for a secret. */
export interface InstanceSettingRow {
  key: string;
  value: string | null;
  sealed_value: string | null;
  updated_at: Date;
}
