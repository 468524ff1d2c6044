"""botocore_endpoints.py CASES - botocore's own endpoint resolution, the oracle of
test_endpoint_resolution.sh and test_doctor.sh. Each line of CASES is "<botocore
service> <region> <fips 0|1> <dualstack 0|1> [url]"; each answer is "<the line> =
<url> <signing region> <signing name>" or "<the line> = error: <botocore's message>".
Run with AWS_DATA_PATH pointing at smfw's vendored data/aws."""
import sys
import botocore
import botocore.session
from botocore.config import Config

assert botocore.__version__ == "1.43.11", botocore.__version__
session = botocore.session.get_session()
for line in open(sys.argv[1]):
    f = line.split()
    svc, region, fips, ds = f[0], f[1], f[2] == "1", f[3] == "1"
    url = f[4] if len(f) > 4 else None
    key = " ".join(f)
    try:
        client = session.create_client(
            svc, region_name=region, endpoint_url=url,
            aws_access_key_id="AKIDEXAMPLE", aws_secret_access_key="SECRET",
            config=Config(use_fips_endpoint=fips, use_dualstack_endpoint=ds))
        model = client.meta.service_model
        op = model.operation_model(model.operation_names[0])
        ctx = {}
        # What _make_api_call does before signing: the rules' URL and signing context.
        ep_url, _, _ = client._resolve_endpoint_ruleset(op, {}, ctx)
        sign = ctx.get("signing", {})
        print(key, "=", ep_url, sign.get("region", client.meta.region_name),
              sign.get("signing_name", model.signing_name))
    except Exception as e:  # botocore refuses: smfw must too
        print(key, "= error:", str(e).replace("\n", " "))
