package io.sluice.cli.cluster;

import io.sluice.cli.config.Suggestions;
import io.sluice.cli.pipeline.KafkaProperties;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Checks {@code -X key=value} flags as a pipeline file's {@code properties} are checked (values by
 * {@link KafkaProperties#refusal}): a key no Kafka client of
 * the command knows (a typo such as {@code lingr.ms} or {@code secuirty.protocol} was passed on and ignored, so a run
 * went over plaintext without a word), or a value its definition refuses, is a mistake said before anything runs.
 *
 * <p>Stateless.
 */
public final class PropertyFlags {

    /** Keys under it configure config providers (secrets kept off the command line): no client lists them. */
    private static final String CONFIG_PROVIDERS = "config.providers.";

    private PropertyFlags() {
    }

    /**
     * Every mistake in {@code flags}, in their order; empty when none.
     *
     * @param clients what the command's clients accept, by the name a person knows them by ("producer")
     */
    public static List<String> problems(Map<String, String> flags, Map<String, ConfigDef> clients) {
        List<String> problems = new ArrayList<>();
        if (flags == null) {
            return problems;
        }
        Map<String, ConfigDef.ConfigKey> known = new LinkedHashMap<>();
        clients.values().forEach(def -> def.configKeys().forEach(known::putIfAbsent));
        flags.forEach((key, value) -> {
            if (key.startsWith(CONFIG_PROVIDERS) || value.contains("${")) {
                return; // a config provider's own keys, and values a provider fills in when the client is made
            }
            ConfigDef.ConfigKey definition = known.get(key);
            if (definition == null) {
                problems.add("-X " + key + ": not a Kafka " + names(clients.keySet()) + " setting"
                        + Suggestions.didYouMean(key, known.keySet()));
            } else if (definition.type != ConfigDef.Type.PASSWORD) {
                KafkaProperties.refusal(key, value, definition).ifPresent(why -> problems.add("-X " + key + ": " + why));
            }
        });
        return problems;
    }

    /** "producer"; "consumer or admin client"; "consumer, admin client or producer". */
    private static String names(java.util.Collection<String> clients) {
        List<String> all = List.copyOf(clients);
        return all.size() == 1 ? all.get(0)
                : String.join(", ", all.subList(0, all.size() - 1)) + " or " + all.get(all.size() - 1);
    }
}
