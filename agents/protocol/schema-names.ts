// Names used in ProtocolSchemaError messages; shared so error mapping can tell the schemas apart.
export const TASK_SCHEMA_NAME = "DelegatedTask";
export const RESPONSE_SCHEMA_NAME = "TaskResponse";
export const ASK_RESULT_SCHEMA_NAME = "AskResult";
export const MANIFEST_ENTRY_SCHEMA_NAME = "ManifestEntry";
