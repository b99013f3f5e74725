package io.sluice.cli.reassign;

import io.sluice.cli.Main;
import io.sluice.cli.console.Console;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Not a test: a measurement run by hand (docs/reassign.md has the command and the figures). Moves a topic's share
 * onto an added broker and back off it, without a throttle and then with one, and prints each move's time.
 *
 * <p>Threading: the main thread.
 */
public final class MoveTimeMeasurement {

    private MoveTimeMeasurement() {
    }

    /** Arguments: megabytes in the topic (default 200), the throttle (default 10MB/s). */
    public static void main(String[] args) throws Exception {
        int megabytes = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        String throttle = args.length > 1 ? args[1] : "10MB/s";
        try (KafkaCluster kafka = KafkaCluster.builder().name("move-time").nodes(3).start()) {
            kafka.addBroker(null);
            String topic = "measured";
            Map<Integer, List<Integer>> assignment = new HashMap<>();
            for (int p = 0; p < 4; p++) {
                assignment.put(p, List.of(1 + p % 3, 1 + (p + 1) % 3, 1 + (p + 2) % 3));
            }
            kafka.createTopic(new NewTopic(topic, assignment));
            fill(kafka, topic, megabytes);
            Path dir = Files.createTempDirectory("move-time");
            String bootstrap = kafka.bootstrapServers();
            for (String rate : new String[] {null, throttle}) {
                long add = move(dir, bootstrap, rate, "--add-brokers", topic);
                long remove = move(dir, bootstrap, rate, "--remove-brokers", topic);
                System.out.printf("%s: onto broker 4 %.1f s, off it %.1f s%n",
                        rate == null ? "no throttle" : "throttle " + rate, add / 1e9, remove / 1e9);
            }
        }
    }

    private static long move(Path dir, String bootstrap, String rate, String goal, String topic) {
        Path plan = dir.resolve(goal.substring(2) + "-" + (rate == null ? "free" : "throttled") + ".json");
        run("reassign", "plan", "-b", bootstrap, goal, "4", "-t", topic, "-o", plan.toString());
        long start = System.nanoTime();
        if (rate == null) {
            run("reassign", "execute", plan.toString(), "-b", bootstrap, "--poll", "200ms", "--no-retention-guard");
        } else {
            run("reassign", "execute", plan.toString(), "-b", bootstrap, "--poll", "200ms", "--no-retention-guard",
                    "--throttle", rate);
        }
        return System.nanoTime() - start;
    }

    private static void run(String... args) {
        int status = Main.execute(args, Console.system());
        if (status != 0) {
            throw new IllegalStateException(String.join(" ", args) + " exited " + status);
        }
    }

    private static void fill(KafkaCluster kafka, String topic, int megabytes) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        byte[] value = new byte[10_000];
        new java.util.Random(1).nextBytes(value);
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < megabytes * 100; i++) {
                producer.send(new ProducerRecord<>(topic, value));
            }
            producer.flush();
        }
    }
}
