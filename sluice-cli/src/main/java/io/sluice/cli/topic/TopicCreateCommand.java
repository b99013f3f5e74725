package io.sluice.cli.topic;

import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.cluster.RefusedFlags;
import io.sluice.cli.cluster.TopicFlags;
import io.sluice.cli.probe.BootstrapProbe;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice topic create}: one topic, with its partitions, replication factor and configs. A topic that exists is
 * an error (its partitions may differ from what was asked), unless {@code --if-not-exists} says that is fine.
 *
 * <p>Threading: filled by picocli, then called on the command's thread.
 */
@Command(name = "create", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Creates a topic: -b HOST:PORT -t NAME [--partitions N] [--replication-factor R] "
                + "[--config key=value ...].")
public final class TopicCreateCommand implements Callable<Integer> {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Mixin
    KafkaFlags kafka;

    @Mixin
    TopicFlags topicFlags;

    @Mixin
    RefusedFlags.Group refusedGroup;

    @Option(names = "--partitions", paramLabel = "N", description = "Partitions (default: the brokers' "
            + "num.partitions).")
    Integer partitions;

    @Option(names = "--replication-factor", paramLabel = "R", description = "Copies of each partition (default: the "
            + "brokers' default.replication.factor).")
    Short replicationFactor;

    @Option(names = "--config", paramLabel = "KEY=VALUE", description = "A topic config, e.g. retention.ms=604800000;"
            + " repeat for more.")
    Map<String, String> configs;

    @Option(names = "--if-not-exists", description = "A topic of that name already there is fine (exit 0); it is "
            + "left as it is.")
    boolean ifNotExists;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        refusedGroup.refuse("the topics of --topic");
        List<String> topics = topicFlags.topics(List.of());
        if (topics.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "name a topic: -t NAME (repeat -t, or "
                    + "separate names with commas, for more with the same settings)");
        }
        if (partitions != null && partitions < 1 || replicationFactor != null && replicationFactor < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--partitions and --replication-factor are "
                    + "1 or more");
        }
        Map<String, Object> props = kafka.clientProperties(Map.of());
        if (props.get("bootstrap.servers") == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--bootstrap-servers is required: where the "
                    + "Kafka brokers are, e.g. 127.0.0.1:9092");
        }
        PrintWriter out = spec.commandLine().getOut();
        int probed = new BootstrapProbe(Duration.ofSeconds(5)).verifyFor("sluice topic create", props,
                spec.commandLine().getErr());
        if (probed != 0) {
            return probed;
        }
        // several topics with the same settings, as -t takes them everywhere (a new user's -t clicks,clicks-dlq was
        // refused with "name one topic")
        List<NewTopic> wanted = topics.stream().map(topic -> new NewTopic(topic, Optional.ofNullable(partitions),
                Optional.ofNullable(replicationFactor)).configs(configs == null ? Map.of() : new HashMap<>(configs)))
                .toList();
        List<String> failures = new java.util.ArrayList<>();
        try (Admin admin = Admin.create(props)) {
            org.apache.kafka.clients.admin.CreateTopicsResult created = admin.createTopics(wanted);
            for (String topic : topics) {
                try {
                    // the count the creation answered with: a description right after it may reach a broker that
                    // does not know the topic yet, and said "cannot create" of a topic just made (a CI flake)
                    int made = created.numPartitions(topic).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                    out.println("created topic " + topic + " with " + made + (made == 1 ? " partition"
                            : " partitions"));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof TopicExistsException && ifNotExists) {
                        out.println("topic " + topic + " exists already; left as it is");
                    } else if (e.getCause() instanceof TopicExistsException) {
                        failures.add("topic " + topic + " exists already; nothing changed (--if-not-exists accepts "
                                + "that)");
                    } else {
                        failures.add("cannot create topic " + topic + ": " + e.getCause().getMessage());
                    }
                }
            }
        }
        out.flush();
        if (!failures.isEmpty()) {
            throw new RunFailure(String.join("; ", failures));
        }
        return ExitStatus.OK;
    }
}
