package io.sluice.cli.probe;

import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeInput;
import io.sluice.mirror.MirrorConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The clusters a mirror or a merge talks to, each with its client settings and its role in words, for
 * {@link BootstrapProbe#verifyClusters}: a wrong port is then said at once, naming the cluster, instead of after the
 * clients' 30 to 60 seconds of retries and a page of their warnings.
 *
 * <p>Stateless.
 */
public final class ClusterRoles {

    private ClusterRoles() {
    }

    public static Map<String, Map<String, ?>> of(MirrorConfig mirror) {
        Map<String, Map<String, ?>> roles = new LinkedHashMap<>();
        roles.put("the source cluster", mirror.sourceProperties());
        roles.put("the target cluster", mirror.targetProperties());
        return roles;
    }

    /** How a merge's input is named among its clusters. */
    public static String inputRole(String input) {
        return "input '" + input + "'";
    }

    public static Map<String, Map<String, ?>> of(MergeConfig merge) {
        Map<String, Map<String, ?>> roles = new LinkedHashMap<>();
        for (MergeInput input : merge.inputs()) {
            roles.put(inputRole(input.name()), input.clientProperties());
        }
        roles.put("the target cluster", merge.targetProperties());
        return roles;
    }
}
