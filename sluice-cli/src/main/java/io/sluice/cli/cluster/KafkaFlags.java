package io.sluice.cli.cluster;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The flags that name a Kafka cluster and its client settings, for commands that take them from a pipeline file or
 * from the command line, flags winning: a picocli mixin. Commands that also work on chosen topics or a group add
 * {@link TopicFlags} and {@link GroupFlags}; the others do not list those flags, nor take them.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
public final class KafkaFlags {

    @Option(names = {"-b", "--bootstrap-servers"}, paramLabel = "HOST:PORT[,...]",
            description = "The brokers (bootstrap.servers); over a pipeline file's, where the command takes one.")
    String bootstrapServers;

    @Option(names = {"-X", "--property"}, paramLabel = "KEY=VALUE", description = "A Kafka client setting, e.g. "
            + "security.protocol=SSL, over a pipeline file's; repeatable; checked as a pipeline's properties are. Values "
            + "are never printed.")
    Map<String, String> properties;

    /** The command these flags belong to: a mistake in them is its usage error. */
    @Spec(Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    /**
     * {@code base} (a pipeline's client settings, or none) with {@code -X} and {@code --bootstrap-servers} over it.
     *
     * @throws CommandLine.ParameterException for a {@code -X} setting no consumer, admin client or producer knows, or a value it
     *     refuses ({@link PropertyFlags})
     */
    public Map<String, Object> clientProperties(Map<String, ?> base) {
        Map<String, ConfigDef> clients = new LinkedHashMap<>();
        clients.put("consumer", ConsumerConfig.configDef());
        clients.put("admin client", AdminClientConfig.configDef());
        clients.put("producer", ProducerConfig.configDef()); // reassign's journal writes with one
        List<String> problems = PropertyFlags.problems(properties, clients);
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(command.commandLine(), String.join("\n", problems));
        }
        if (bootstrapServers != null && properties != null && properties.containsKey("bootstrap.servers")) {
            // one of the two would silently win: which cluster the command talks to must not be a guess
            throw new CommandLine.ParameterException(command.commandLine(), "-X bootstrap.servers names the brokers "
                    + "a second time: give them once, with -b");
        }
        Map<String, Object> props = new HashMap<>(base);
        if (properties != null) {
            props.putAll(properties);
        }
        if (bootstrapServers != null) {
            props.put("bootstrap.servers", bootstrapServers);
        }
        return props;
    }
}
