package io.sluice.cli;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.config.Variables;
import io.sluice.cli.console.Console;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What the {@code sluice} script runs once per jar (and JDK) to list the classes of the class-data archive every later
 * start maps instead of loading and verifying its classes one by one (Java's application class-data sharing: the
 * list of {@code -XX:DumpLoadedClassList}, dumped by {@code -Xshare:dump}): a start of the command loads about 5,000
 * classes, most of them the Kafka clients',
 * picocli's, logback's, SnakeYAML's and Micrometer's, and that took about a second of the two before a mirror's first
 * copy (issue 13). It does, without any broker, what every start does first: the command line with each command's
 * help, the logging set-up, a pipeline and a mirror file read and checked, the Kafka clients made and closed, and the
 * meters made and scraped; and it loads the classes of the packages a run loads once it talks to brokers. Nothing it
 * does leaves a trace but the archive; it needs no network.
 *
 * <p>Threading: the main thread.
 */
public final class ClassDataTraining {

    /** Nothing listens there: the clients are made and closed, never connected. */
    private static final String NOWHERE = "127.0.0.1:9";

    private ClassDataTraining() {
    }

    public static void main(String[] args) throws IOException {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        Console console = new Console(quiet, quiet, false);
        Path dir = Files.createTempDirectory("sluice-class-data");
        try {
            commands(console, dir);
            clients();
            meters();
            packages();
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The command line, every command's help, and a pipeline and a mirror file checked as {@code validate} does. */
    private static void commands(Console console, Path dir) throws IOException {
        Main.execute(new String[] {"--help"}, console);
        for (String command : SluiceCommand.commandLine(new CliContext(console, Variables.environment()))
                .getSubcommands().keySet()) {
            Main.execute(new String[] {command, "--help"}, console);
        }
        Path pipeline = Files.writeString(dir.resolve("pipeline.yaml"), """
                source:
                  bootstrap-servers: %s
                  topics: clicks
                  group: training
                sink:
                  location: %s
                  template: "{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/"
                  format: jsonl
                  codec: zstd
                """.formatted(NOWHERE, dir.resolve("archive")));
        Path mirror = Files.writeString(dir.resolve("mirror.yaml"), """
                source:
                  bootstrap-servers: %s
                  topics: clicks
                target:
                  bootstrap-servers: %s
                mirror:
                  name: training
                  groups: "clicks-.*"
                """.formatted(NOWHERE, NOWHERE));
        Main.execute(new String[] {"validate", pipeline.toString()}, console);
        Main.execute(new String[] {"validate", mirror.toString()}, console);
    }

    /** An admin client, a read_committed consumer in a group and a transactional producer: made, then closed. */
    private static void clients() {
        Map<String, Object> connection = Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, NOWHERE);
        Map<String, Object> consumer = new HashMap<>(connection);
        consumer.put(ConsumerConfig.GROUP_ID_CONFIG, "training");
        consumer.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, Object> producer = new HashMap<>(connection);
        producer.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "training");
        try (Admin admin = Admin.create(connection);
                KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(consumer, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer());
                KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producer, new ByteArraySerializer(),
                        new ByteArraySerializer())) {
            admin.describeCluster(); // queued, never answered: what an admin call builds on the way out
            p.close(Duration.ZERO);
            c.close(Duration.ZERO);
            admin.close(Duration.ZERO);
        }
    }

    /**
     * Every class of the packages a run goes on to load once it talks to brokers (the Kafka protocol's requests,
     * responses and errors, the clients' internals) and of Sluice itself, loaded without being initialized: these are
     * most of the classes a mirror's or an archive's start still loaded from the jar with only the steps above.
     */
    private static void packages() throws IOException {
        ClassLoader loader = ClassDataTraining.class.getClassLoader();
        Path jar;
        try {
            jar = Path.of(ClassDataTraining.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            return;
        }
        if (!Files.isRegularFile(jar)) {
            return; // run from classes, not the shipped jar: nothing to archive
        }
        try (JarFile classes = new JarFile(jar.toFile())) {
            classes.stream().map(JarEntry::getName)
                    .filter(name -> name.endsWith(".class") && !name.contains("-info")
                            && SWEPT.stream().anyMatch(name::startsWith))
                    .forEach(name -> {
                        try {
                            Class.forName(name.substring(0, name.length() - 6).replace('/', '.'), false, loader);
                        } catch (Throwable t) {
                            // a class that needs what is not there (an optional dependency) is left to its run
                        }
                    });
        }
    }

    /** The packages {@link #packages} loads every class of. */
    private static final List<String> SWEPT = List.of("io/sluice/", "org/apache/kafka/common/protocol/",
            "org/apache/kafka/common/requests/", "org/apache/kafka/common/message/", "org/apache/kafka/common/errors/",
            "org/apache/kafka/common/record/", "org/apache/kafka/clients/");

    /** The Prometheus registry every run records on, with a timer like the engine's, scraped once. */
    private static void meters() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Timer timer = Timer.builder("sluice.training").publishPercentileHistogram().register(registry);
        timer.record(Duration.ofMillis(3));
        registry.scrape();
        registry.close();
    }
}
