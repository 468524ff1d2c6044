const v = require("@kubernetes-models/validate");
require("./node_modules/kubernetes-models/_schemas/IoK8sApiBatchV1Job.js").addSchema();
const defs = {};
for (const [id, s] of Object.entries(v.all)) defs[id] = s;
const out = { $schema: "http://json-schema.org/draft-07/schema#", $id: "io.k8s.api.batch.v1.Job.bundle", $ref: "#/definitions/io.k8s.api.batch.v1.Job", definitions: defs };
let text = JSON.stringify(out, null, 1).replace(/"\$ref": "([^"#]+)#"/g, '"$ref": "#/definitions/$1"');
process.stdout.write(text + "\n");
