/*
 * net_probe.c - smfw's TLS/proxy configuration (include/smfw/net.h) as the
 * environment resolves it, for test_aws_tls_proxy.sh to compare with
 * botocore's reading of the same environment.
 *
 *   net_probe URL...    one line per URL: URL<TAB>PROXY (or DIRECT)
 *   net_probe describe  the line smfw logs and `smfw config` prints
 *
 * Exit status: 0, or 1 with the error sentence (e.g. an unreadable
 * AWS_CA_BUNDLE) on stderr.
 */
#include <stdio.h>
#include <string.h>

#include <smfw/net.h>

int main(int argc, char **argv) {
    smfw_net_config *net = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    if (smfw_net_config_new(NULL, NULL, NULL, NULL, &net, &err) != SMFW_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    if (argc == 2 && strcmp(argv[1], "describe") == 0) {
        char line[4096];
        smfw_net_describe(net, line, sizeof line);
        printf("%s\n", line);
    } else {
        for (int i = 1; i < argc; i++) {
            const char *p = smfw_net_proxy_for(net, argv[i], NULL);
            printf("%s\t%s\n", argv[i], p ? p : "DIRECT");
        }
    }
    smfw_net_config_free(net);
    return 0;
}
