-- Input tokens the model server answered from its prompt cache (part of input_tokens), per phase and model.
ALTER TABLE session_usage ADD COLUMN cached_input_tokens bigint NOT NULL DEFAULT 0;
