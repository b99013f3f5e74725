package io.sluice.merge;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * One input of a merge: a topic on its own cluster, with a name that stays the same as long as the merge lives (its
 * committed positions are kept by input, in the configured order). Immutable.
 */
public record MergeInput(String name, Map<String, Object> clientProperties, String topic) {

    private static final Pattern NAME = Pattern.compile("[a-zA-Z0-9._-]+");

    public MergeInput {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("input name '" + name + "' may hold only letters, digits, '.', '_' "
                    + "and '-'");
        }
        clientProperties = Map.copyOf(clientProperties);
        if (clientProperties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) == null) {
            throw new IllegalArgumentException("input '" + name + "' needs bootstrap.servers: where its cluster is");
        }
        if (topic == null || topic.isBlank()) {
            throw new IllegalArgumentException("input '" + name + "' needs a topic");
        }
    }

    /** What the committed state's fingerprint covers: renaming an input or pointing it at another topic changes it. */
    String identity() {
        return name + "=" + topic;
    }
}
