// zod with the `.openapi()` method that names a schema in an OpenAPI document and adds what JSON Schema cannot
// say of it (docs/openapi.md). The documents' schemas are built with this `z`, so that the method is there
// before the first of them is made; adding it changes nothing of how any schema validates.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
