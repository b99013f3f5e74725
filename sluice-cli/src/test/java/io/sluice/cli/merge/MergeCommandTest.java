package io.sluice.cli.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.Main;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.net.Ports;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.merge.order.MergeKey;
import io.sluice.merge.write.MergeHeaders;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice merge}, {@code validate}, {@code lag} and {@code verify} on a merge file of two inputs on two clusters, as a user types
 * them: the output is the merge the library promises (by event time, ties by input then offset, every record once),
 * also after a SIGTERM's drain and a rerun.
 */
class MergeCommandTest {

    /** Recent: the brokers delete records older than their retention soon after they are written. */
    private static final long BASE = System.currentTimeMillis() - 3_600_000;

    private final KafkaCluster west = SharedKafka.cluster();
    private final KafkaCluster east = SharedKafka.second();

    @Test
    void untilEndMergesBothInputsInOrderAndLeavesNoLag() throws Exception {
        String[] topics = inputs("cli-merge", 400, 300);
        String output = Names.unique("cli-merged");
        Path file = mergeFile(topics, output);

        Cli.Result valid = Cli.run("validate", file.toString(), "--connect");
        assertEquals(ExitStatus.OK, valid.status(), valid.out() + valid.err());
        assertTrue(valid.out().contains("valid: a merge of " + topics[0]), valid.out());
        assertTrue(valid.out().contains("can be merged into " + output), valid.out());

        Cli.Result run = Cli.run("merge", file.toString(), "--until-end");
        assertEquals(ExitStatus.OK, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("stopped cleanly: 1,400 records merged, 0 late, 0 dead letters"), run.err());
        assertEquals(expected(topics), sources(output));

        Cli.Result lag = Cli.run("lag", file.toString());
        assertEquals(ExitStatus.OK, lag.status(), lag.out() + lag.err());
        // east was written in a committed transaction (its marker at offset 300), then an aborted one (301-305, its
        // marker at 306): the merge's committed position passes both, or its lag would stay above 0
        assertTrue(lag.out().contains("Total lag 0 records (west 0, east 0)"), lag.out());
        assertTrue(lag.out().lines().anyMatch(l -> l.matches("\\s*1\\s+east\\s+" + topics[1] + "\\s+307\\s+307\\s+0")),
                lag.out());

        Cli.Result verify = Cli.run("verify", file.toString());
        assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("OK: every committed input record is in the output once, unchanged, in merge "
                + "order"), verify.out());
        assertTrue(valid.out().contains("committed state: what the target holds for merge"), valid.out());

        // what a start would refuse, validate --connect says beforehand: it passed both of these files before
        String text = Files.readString(file);
        Path otherDelivery = Files.writeString(file.resolveSibling("at-least-once.yaml"),
                text.replace("  commit-interval: 200ms\n", "  commit-interval: 200ms\n  delivery: at-least-once\n"));
        Cli.Result switched = Cli.run("validate", otherDelivery.toString(), "--connect");
        assertEquals(ExitStatus.FAILURE, switched.status(), switched.out() + switched.err());
        assertTrue(switched.out().contains("committed state FAILED: output partitions " + output + "-0, " + output
                + "-1 of merge '") && switched.out().contains("were merged with delivery exactly-once"), switched.out());
        Path reordered = Files.writeString(file.resolveSibling("reordered.yaml"),
                text.replace("inputs: [west, east]", "inputs: [east, west]"));
        Cli.Result swapped = Cli.run("validate", reordered.toString(), "--connect");
        assertEquals(ExitStatus.FAILURE, swapped.status(), swapped.out() + swapped.err());
        assertTrue(swapped.out().contains("was committed by this merge under other inputs or another order key"),
                swapped.out());
        // the merge itself refuses it before starting (it stopped a running merge, advising a restart)
        Cli.Result swappedRun = Cli.run("merge", reordered.toString(), "--until-end");
        assertEquals(ExitStatus.FAILURE, swappedRun.status(), swappedRun.out() + swappedRun.err());
        assertTrue(swappedRun.err().contains(" cannot start: ") && swappedRun.err().contains("was committed by this "
                + "merge under other inputs or another order key") && swappedRun.err().contains("Nothing was merged"),
                swappedRun.err());
        assertFalse(swappedRun.err().contains("a restart resumes"), swappedRun.err());

        // lag with an input down names it at once (it said "cannot read how far merge m is: null" after 35 s), and
        // shows the other input's rows (it showed none)
        int closed;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Path eastDown = Files.writeString(file.resolveSibling("east-down.yaml"),
                text.replace(east.bootstrapServers(), "127.0.0.1:" + closed));
        long asked = System.nanoTime();
        Cli.Result down = Cli.run("lag", eastDown.toString());
        assertEquals(ExitStatus.OK, down.status(), down.out() + down.err());
        assertTrue(down.out().contains("Note: input 'east' (127.0.0.1:" + closed + "): no broker answers: "),
                down.out());
        assertTrue(down.out().contains("Total lag 0 records (west 0, east 0 and 2 partitions unknown)"), down.out());
        assertTrue(down.out().lines().anyMatch(l -> l.matches("\\s*1\\s+west\\s+" + topics[0]
                + "\\s+\\d+\\s+\\d+\\s+0")), down.out());
        assertTrue(down.out().lines().anyMatch(l -> l.matches("\\s*1\\s+east\\s+" + topics[1]
                + "\\s+307\\s+\\?\\s+\\?")), down.out());
        assertTrue(System.nanoTime() - asked < java.util.concurrent.TimeUnit.SECONDS.toNanos(25),
                "the silent input is not waited for");
    }

    @Test
    void sigtermDrainsAndExitsZeroAndARerunCompletesTheMergeWithEveryRecordOnce() throws Exception {
        String[] topics = inputs("cli-drain", 15_000, 15_000);
        String output = Names.unique("cli-drained");
        Path file = mergeFile(topics, output);

        int metricsPort = Ports.free();
        ChildProcess child = ChildJvm.builder("sluice-merge")
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC"))
                .mainClass(Main.class.getName())
                .args("merge", file.toString(), "--progress-every", "1s", "--metrics-port",
                        Integer.toString(metricsPort))
                .workDir(file.getParent())
                .build()
                .start();
        // an output partition claimed: merging has begun, with tens of thousands of records to go
        child.awaitLogLine(l -> l.contains(" claimed, from positions"), Duration.ofSeconds(60));
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + metricsPort + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
        // the only instance claims both output partitions, one after the other
        awaitAnswer(metricsPort, "/ready", "200 READY: 2 partitions assigned");
        assertEquals("200 RUNNING", get(metricsPort, "/health"));
        assertTrue(metrics.contains("sluice_merge_records_total{input=\"west\"")
                && metrics.contains("sluice_merge_late_total{input=\"east\"")
                && metrics.contains("sluice_merge_lag{input=\"east\"")
                && metrics.contains("sluice_merge_dead_letters_total{merge="), metrics);
        int status = child.stop(Duration.ofSeconds(60));
        String log = Files.readString(child.logFile(), StandardCharsets.UTF_8);
        assertEquals(ExitStatus.OK, status, log);
        assertTrue(log.contains("stopping (signal received)") && log.contains("stopped cleanly: "), log);
        System.out.println("[merge-cli] drained: " + log.lines().filter(l -> l.contains("stopped cleanly"))
                .findFirst().orElseThrow());

        Cli.Result rerun = Cli.run("merge", file.toString(), "--until-end");
        assertEquals(ExitStatus.OK, rerun.status(), rerun.out() + rerun.err());
        assertEquals(expected(topics), sources(output), "the drained run and the rerun together: every record "
                + "once, in the one merged order");
    }

    /**
     * A merge restarted after kill -9 waits for the killed member's session to end before it can claim the output
     * partitions, and says so (a new user's run sat 37 to 47 s without a word); then it merges every record once.
     */
    @Test
    void aRestartAfterKillNineSaysWhyItWaitsForThePartitions() throws Exception {
        String[] topics = inputs("cli-killed", 2_000, 2_000);
        String output = Names.unique("cli-killed-out");
        // a session well past the warning: the rerun's own start (seconds on a busy machine) must not outlast it
        Path file = mergeFile(topics, output, "  session-timeout: 30s");
        ChildProcess child = ChildJvm.builder("sluice-merge-killed")
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC"))
                .mainClass(Main.class.getName())
                .args("merge", file.toString())
                .workDir(file.getParent())
                .build()
                .start();
        child.awaitLogLine(l -> l.contains(" claimed, from "), Duration.ofSeconds(60));
        child.kill();

        Cli.Result rerun = Cli.run("merge", file.toString(), "--until-end");
        assertEquals(ExitStatus.OK, rerun.status(), rerun.out() + rerun.err());
        assertTrue(rerun.err().contains("no output partition claimed after 10 s: other instances of merge ")
                && rerun.err().contains("holds its partitions until its session times out (merge.session-timeout, "
                + "30 s)"), rerun.err());
        assertEquals(expected(topics), sources(output), "every record once, in the one merged order");
    }

    @Test
    void validateRefusesInputsWithDifferentPartitionCountsNamingTheCounts() throws Exception {
        String[] topics = {Names.unique("cli-count-west"), Names.unique("cli-count-east")};
        west.createTopic(topics[0], 2);
        east.createTopic(topics[1], 3);
        Path file = mergeFile(topics, Names.unique("cli-count-out"));

        Cli.Result result = Cli.run("validate", file.toString(), "--connect");
        assertEquals(ExitStatus.FAILURE, result.status(), result.out() + result.err());
        assertTrue(result.out().contains("topics FAILED: the inputs' topics have different partition counts (west 2, "
                + "east 3)"), result.out());

        Cli.Result run = Cli.run("merge", file.toString(), "--until-end");
        assertEquals(ExitStatus.FAILURE, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("sluice: merge ") && run.err().contains("(west 2, east 3)")
                && !run.err().contains("\tat "), run.err());
    }

    private Path mergeFile(String[] topics, String output) throws Exception {
        return mergeFile(topics, output, "");
    }

    /** @param mergeExtra more keys of the merge section (indented), besides its name, inputs and commit interval */
    private Path mergeFile(String[] topics, String output, String mergeExtra) throws Exception {
        Path file = TestDirs.newDir("merge-cli").resolve("merge.yaml");
        Files.writeString(file, String.join("\n",
                "merge:",
                "  name: " + Names.unique("cli"),
                "  inputs: [west, east]",
                "  commit-interval: 200ms",
                mergeExtra,
                "input:",
                "  west:",
                "    bootstrap-servers: " + west.bootstrapServers(),
                "    topic: " + topics[0],
                "  east:",
                "    bootstrap-servers: " + east.bootstrapServers(),
                "    topic: " + topics[1],
                "target:",
                "  bootstrap-servers: " + west.bootstrapServers(),
                "  topic: " + output,
                ""));
        return file;
    }

    /** "status body" of GET {@code path} on 127.0.0.1:{@code port}, the body's trailing newline dropped. */
    private static String get(int port, String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + port + path)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body().stripTrailing();
    }

    private static void awaitAnswer(int port, String path, String expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String last = get(port, path);
        while (!last.equals(expected)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("GET " + path + " answered '" + last + "' for 30 s, not '" + expected + "'");
            }
            Thread.sleep(50);
            last = get(port, path);
        }
    }

    /** Two input topics of two partitions, west's and east's, each partition with that many records. */
    private String[] inputs(String prefix, int westRecords, int eastRecords) {
        String[] topics = {Names.unique(prefix + "-west"), Names.unique(prefix + "-east")};
        west.createTopic(topics[0], 2);
        east.createTopic(topics[1], 2);
        long seed = new Random().nextLong();
        System.out.println("[merge-cli] seed " + seed);
        Random random = new Random(seed);
        for (int p = 0; p < 2; p++) {
            produce(west, topics[0], p, times(random, westRecords), false);
            produce(east, topics[1], p, times(random, eastRecords), true);
        }
        return topics;
    }

    /** {@code n} non-decreasing event times, with runs of equal ones (ties the input order breaks). */
    private static long[] times(Random random, int n) {
        long[] times = new long[n];
        long t = BASE;
        for (int k = 0; k < n; k++) {
            t += random.nextInt(4) == 0 ? 0 : random.nextInt(100);
            times[k] = t;
        }
        return times;
    }

    /**
     * @param transaction written in one transaction, as a mirror or an exactly-once produce writes (a marker ends it),
     *     then a few records in a transaction that aborts
     */
    private static void produce(KafkaCluster cluster, String topic, int partition, long[] times, boolean transaction) {
        Map<String, Object> props = new HashMap<>(cluster.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        if (transaction) {
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, Names.unique("merge-input"));
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            if (transaction) {
                producer.initTransactions();
                producer.beginTransaction();
            }
            for (int k = 0; k < times.length; k++) {
                producer.send(new ProducerRecord<>(topic, partition, times[k], ("k" + k).getBytes(
                        StandardCharsets.UTF_8), ("{\"at\":" + times[k] + "}").getBytes(StandardCharsets.UTF_8)));
            }
            if (transaction) {
                producer.commitTransaction();
                // then an aborted tail: offsets a read_committed reader passes without a record
                producer.beginTransaction();
                for (int k = 0; k < 5; k++) {
                    producer.send(new ProducerRecord<>(topic, partition, times[times.length - 1], null,
                            "aborted".getBytes(StandardCharsets.UTF_8)));
                }
                producer.flush(); // written, then aborted: unsent records would just be dropped
                producer.abortTransaction();
            }
        }
    }

    /** Per partition, the inputs' records by (event time, input, offset), as {@code input:partition:offset}. */
    private Map<Integer, List<String>> expected(String[] topics) {
        List<String> names = List.of("west", "east");
        List<KafkaCluster> clusters = List.of(west, east);
        Map<Integer, List<MergeKey>> keys = new TreeMap<>();
        for (int i = 0; i < 2; i++) {
            for (ConsumerRecord<byte[], byte[]> r : TestRecords.readAll(clusters.get(i).clientProperties(
                    Listener.PLAINTEXT), topics[i], Duration.ofSeconds(30))) {
                keys.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(new MergeKey(r.timestamp(), i,
                        r.offset()));
            }
        }
        Map<Integer, List<String>> expected = new TreeMap<>();
        keys.forEach((p, list) -> expected.put(p, list.stream().sorted().map(k -> names.get(k.input()) + ":" + p
                + ":" + k.offset()).toList()));
        return expected;
    }

    /** Per output partition, where each record came from, in output order (as read_committed readers see it). */
    private Map<Integer, List<String>> sources(String output) {
        Map<Integer, List<String>> sources = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : TestRecords.readAll(west.clientProperties(Listener.PLAINTEXT), output,
                Duration.ofSeconds(30))) {
            Header h = r.headers().lastHeader(MergeHeaders.SOURCE);
            sources.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(h == null ? "?"
                    : new String(h.value(), StandardCharsets.US_ASCII));
        }
        return sources;
    }
}
