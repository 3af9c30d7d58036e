/** Where one configured model stands. */
export interface ModelStanding {
  variable: string;
  model: string;
  server: string;
  /** Whether the server lists it; null when the server gave no list (or could not be read). */
  listed: boolean | null;
  shutdownDate?: string;
  priceSource: string;
  /** For a research model: the API it is called on and why ("the Responses API (the server serves it there)"). */
  api?: string;
  /** A sentence when research with it will fail (or its server could not be asked). */
  problem?: string;
  /** A sentence when it shuts down soon, or has no price. */
  warning?: string;
}

/** The configured models' check, as a surface (`deep-research doctor`) reads it. */
export interface ModelCheck {
  /** The models the settings name that can be checked (one whose server the settings give no access to is left out). */
  readonly watched: readonly unknown[];
  check(probe?: (w: { model: string }) => Promise<unknown>): Promise<ModelStanding[]>;
}
