package io.sluice.cli.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdOutputStream;
import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.cluster.SecureKafka;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.net.Ports;
import io.sluice.producer.input.ImportPosition;
import io.sluice.producer.input.Inputs;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice produce} as a user types it, against the real broker: every format and compression arrives as it
 * should, every record is acknowledged or reported with its line, and what the summary and the journal say is what a
 * read_committed consumer reads.
 */
class ProduceCommandTest {

    /** A timestamp of the input: recent, or the topic's retention would delete its record at once. */
    private static final long RECENT = System.currentTimeMillis() - 60_000;

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void envelopesJsonLinesAndKeyedLinesArriveCompressedOrNotAndTheJournalSaysWhereEachWent() throws Exception {
        String topic = Names.unique("produce-formats");
        kafka.createTopic(topic, 3);
        Path dir = TestDirs.newDir("produce-formats");
        Path envelopes = write(dir.resolve("envelopes.log"), GZIP, "{\"key\":\"k1\",\"value\":{\"n\":1},"
                + "\"headers\":{\"source\":\"test\"},\"partition\":2,\"timestamp\":" + RECENT + "}\n"
                + "{\"key\":null,\"value\":\"plain text\",\"partition\":0}\n");
        Path json = write(dir.resolve("events.zst"), ZSTD, "{\"id\":\"u1\",\"n\":1}\n{\"id\":\"u2\",\"n\":2}\n");
        Path keyed = write(dir.resolve("keyed.lz4"), LZ4, "a|first\r\nb|second\n");
        Path journal = dir.resolve("journal.tsv");

        Cli.Result e = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--format", "envelope",
                "--journal", journal.toString(), envelopes.toString());
        assertEquals(ExitStatus.OK, e.status(), e.err());
        assertEquals(new ProducedRecords.Counts(2, 2, 0, 0), ProducedRecords.counts(e.err()));
        Cli.Result j = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--format", "json",
                "--key-field", "id", "--journal", journal.toString(), json.toString());
        assertEquals(ExitStatus.OK, j.status(), j.err());
        Cli.Result l = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--key-delimiter", "|",
                "--journal", journal.toString(), keyed.toString());
        assertEquals(ExitStatus.OK, l.status(), l.err());

        List<ConsumerRecord<byte[], byte[]>> records = ProducedRecords.read(kafka, topic);
        Map<String, ConsumerRecord<byte[], byte[]>> byValue = records.stream().collect(Collectors.toMap(
                r -> text(r.value()), r -> r));
        assertEquals(Set.of("{\"n\":1}", "plain text", "{\"id\":\"u1\",\"n\":1}", "{\"id\":\"u2\",\"n\":2}", "first",
                "second"), byValue.keySet());
        ConsumerRecord<byte[], byte[]> enveloped = byValue.get("{\"n\":1}");
        assertEquals("k1", text(enveloped.key()));
        assertEquals(2, enveloped.partition());
        assertEquals(RECENT, enveloped.timestamp());
        assertEquals("test", text(enveloped.headers().lastHeader("source").value()));
        assertEquals(null, byValue.get("plain text").key());
        assertEquals("u2", text(byValue.get("{\"id\":\"u2\",\"n\":2}").key()));
        assertEquals("b", text(byValue.get("second").key()));

        Map<String, String> outcomes = ProducedRecords.journal(journal);
        assertEquals(6, outcomes.size(), outcomes.toString());
        assertEquals("ok " + enveloped.partition() + "@" + enveloped.offset(), outcomes.get(envelopes + ":1"));
        ConsumerRecord<byte[], byte[]> second = byValue.get("second");
        assertEquals("ok " + second.partition() + "@" + second.offset(), outcomes.get(keyed + ":2"));
    }

    @Test
    void malformedLinesAndAMissingPartitionAreReportedWithTheirLineAndTheRestArrives() throws Exception {
        String topic = Names.unique("produce-bad");
        kafka.createTopic(topic, 2);
        Path dir = TestDirs.newDir("produce-bad");
        Path input = write(dir.resolve("in.jsonl"), null, String.join("\n",
                "{\"value\":\"one\"}",
                "{\"value\":\"two\"",
                "{\"value\":\"three\",\"partition\":5}",
                "{\"vaule\":\"four\"}",
                "{\"value\":\"five\",\"headers\":{\"n\":5}}",
                "{\"value\":\"six\"}",
                ""));
        Path journal = dir.resolve("journal.tsv");
        Cli.Result run = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--format", "envelope",
                "--journal", journal.toString(), input.toString());
        assertEquals(ExitStatus.SOME_RECORDS_FAILED, run.status(), run.err());
        assertEquals(new ProducedRecords.Counts(6, 2, 4, 0), ProducedRecords.counts(run.err()));
        assertTrue(run.err().contains(input + ":2: malformed line: expected JSON, found a syntax error at column"),
                run.err());
        assertTrue(run.err().contains(input + ":3: not sent, the topic would refuse it: field \"partition\": the topic "
                + "has 2 partition(s), 0 to 1, not 5"), run.err());
        assertTrue(run.err().contains(input + ":4: malformed line: unexpected field \"vaule\""), run.err());
        assertTrue(run.err().contains(input + ":5: malformed line: field \"headers.n\": expected a string or null, "
                + "found a number"), run.err());
        assertEquals(new TreeSet<>(List.of("one", "six")), new TreeSet<>(ProducedRecords.values(kafka, topic)));
        Map<String, String> outcomes = ProducedRecords.journal(journal);
        assertTrue(outcomes.get(input + ":1").startsWith("ok "), outcomes.toString());
        assertTrue(outcomes.get(input + ":4").startsWith("failed bad input: unexpected field"),
                outcomes.toString());
        assertTrue(outcomes.get(input + ":3").startsWith("failed not sent, the topic would refuse it: field "
                + "\"partition\""), outcomes.toString());
    }

    /**
     * Exactly once, the journal lists every line that failed, with why: the summary names the first ten, and which
     * the others were could be learnt nowhere (the journal was refused with --exactly-once; a review).
     */
    @Test
    void anExactlyOnceImportJournalsEveryLineThatFailed() throws Exception {
        String topic = Names.unique("produce-eo-bad");
        kafka.createTopic(topic, 1);
        Path dir = TestDirs.newDir("produce-eo-bad");
        List<String> lines = new ArrayList<>();
        List<String> good = new ArrayList<>();
        for (int i = 1; i <= 30; i++) {
            lines.add(i % 2 == 0 ? "{\"value\":\"v" + i + "\"}" : "{\"vaule\":" + i + "}");
            if (i % 2 == 0) {
                good.add("v" + i);
            }
        }
        Path input = write(dir.resolve("in.jsonl"), null, String.join("\n", lines) + "\n");
        Path journal = dir.resolve("journal.tsv");
        Cli.Result run = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--format", "envelope",
                "--exactly-once", "--journal", journal.toString(), input.toString());
        assertEquals(ExitStatus.SOME_RECORDS_FAILED, run.status(), run.err());
        assertEquals(good, ProducedRecords.values(kafka, topic));
        Map<String, String> outcomes = ProducedRecords.journal(journal);
        assertEquals(15, outcomes.size(), outcomes.toString());
        for (int i = 1; i <= 30; i += 2) {
            assertTrue(outcomes.get(input + ":" + i).startsWith("failed bad input: unexpected field \"vaule\""),
                    outcomes.toString());
        }
    }

    @Test
    void aRecordOverTheTopicsMaxMessageBytesFailsWithItsLineAndTheOthersArrive() throws Exception {
        String topic = Names.unique("produce-big");
        kafka.createTopic(new NewTopic(topic, 1, (short) 1).configs(Map.of("max.message.bytes", "2000")));
        Path dir = TestDirs.newDir("produce-big");
        Path input = write(dir.resolve("in.txt"), null, "small\n" + "x".repeat(5_000) + "\nalso small\n");
        Cli.Result run = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, input.toString());
        assertEquals(ExitStatus.SOME_RECORDS_FAILED, run.status(), run.err());
        assertEquals(new ProducedRecords.Counts(3, 2, 1, 0), ProducedRecords.counts(run.err()));
        assertTrue(run.err().contains(input + ":2: not sent, the topic would refuse it: the record is 5,097 bytes with "
                + "Kafka's framing, more than the 2,000 one request may carry"), run.err());
        assertEquals(List.of("small", "also small"), ProducedRecords.values(kafka, topic));

        // exactly once too: the producer's refusal put its transaction in an error state, so the import stopped
        // there, and every rerun on the same line (a new user's run)
        String eos = Names.unique("produce-big-eos");
        kafka.createTopic(new NewTopic(eos, 1, (short) 1).configs(Map.of("max.message.bytes", "2000")));
        Cli.Result once = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", eos, "--exactly-once",
                input.toString());
        assertEquals(ExitStatus.SOME_RECORDS_FAILED, once.status(), once.err());
        assertEquals(new ProducedRecords.Counts(3, 2, 1, 0), ProducedRecords.counts(once.err()));
        assertTrue(once.err().contains(input + ":2: not sent, the topic would refuse it: the record is "), once.err());
        assertEquals(List.of("small", "also small"), TestRecords.values(TestRecords.readAllDecided(
                kafka.clientProperties(Listener.PLAINTEXT), eos, java.time.Duration.ofSeconds(30))));
    }

    /**
     * A record the topic refuses for its content (a time far ahead, no key for a compacted topic) fails alone, with
     * its line and why: the broker refused its whole batch with it (the innocent records "part of a batch which had
     * one more more invalid records", and the one at fault not among the ten failures listed), and in an exactly-once
     * import it broke the transaction, so every rerun stopped on the same line (a new user's run).
     */
    @Test
    void aRecordTheTopicWouldRefuseFailsAloneWithItsLineAndItsBatchArrivesInBothModes() throws Exception {
        Path dir = TestDirs.newDir("produce-refused-record");
        long future = System.currentTimeMillis() + TimeUnit.DAYS.toMillis(3_650);
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= 400; i++) {
            lines.append("{\"key\":").append(i == 300 ? "null" : "\"k" + i + "\"").append(",\"value\":\"v").append(i)
                    .append("\",\"timestamp\":").append(i == 200 ? future : RECENT).append("}\n");
        }
        Path input = write(dir.resolve("in.jsonl"), null, lines.toString());
        for (boolean exactlyOnce : new boolean[] {false, true}) {
            String topic = Names.unique("produce-refused-record");
            kafka.createTopic(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                    "message.timestamp.after.max.ms", "3600000")));
            List<String> command = new ArrayList<>(List.of("produce", "-b", kafka.bootstrapServers(), "-t", topic,
                    "--format", "envelope", input.toString()));
            if (exactlyOnce) {
                command.addAll(List.of("--exactly-once", "--name", topic));
            }
            Cli.Result run = Cli.run(command.toArray(String[]::new));
            assertEquals(ExitStatus.SOME_RECORDS_FAILED, run.status(), run.err());
            assertEquals(new ProducedRecords.Counts(400, 398, 2, 0), ProducedRecords.counts(run.err()), run.err());
            assertTrue(run.err().contains(input + ":200: not sent, the topic would refuse it: timestamp " + future
                    + " (") && run.err().contains("ahead of this machine's clock; topic " + topic + " takes "
                            + "timestamps at most 1 h ahead (its message.timestamp.after.max.ms)"), run.err());
            assertTrue(run.err().contains(input + ":300: not sent, the topic would refuse it: topic " + topic + " is "
                    + "compacted (cleanup.policy compact) and takes only records with a key; this one has none"),
                    run.err());
            // to the log's end once its transactions are decided: the last commit's markers may trail its answer
            List<String> values = TestRecords.values(TestRecords.readAllDecided(kafka.clientProperties(
                    Listener.PLAINTEXT), topic, java.time.Duration.ofSeconds(30)));
            assertEquals(398, values.size(), "every other record once, in the exactly-once mode too: " + exactlyOnce);
            assertTrue(!values.contains("v200") && !values.contains("v300") && values.contains("v201"), values
                    .toString());
        }
    }

    @Test
    void anUnknownTopicUnsafeSettingsAndStandardInputExactlyOnceAreRefusedInWords() throws Exception {
        Path input = write(TestDirs.newDir("produce-refused").resolve("in.txt"), null, "a\n");
        String missing = Names.unique("no-such-topic");
        Cli.Result unknown = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", missing, input.toString());
        assertEquals(ExitStatus.FAILURE, unknown.status(), unknown.err());
        assertTrue(unknown.err().contains("topic '" + missing + "' does not exist in the cluster at "), unknown.err());
        assertTrue(unknown.err().contains("./sluice topic create -b " + kafka.bootstrapServers() + " -t " + missing
                + " --partitions"), unknown.err());

        String topic = Names.unique("produce-risk");
        kafka.createTopic(topic, 1);
        Cli.Result unsafe = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "-X", "acks=1",
                input.toString());
        assertEquals(ExitStatus.USAGE, unsafe.status(), unsafe.err());
        assertTrue(unsafe.err().contains("refused producer settings that can lose records: acks=1")
                && unsafe.err().contains("Add --allow-loss"), unsafe.err());

        // without --exactly-once nothing began a transaction, so every record failed (exit 3); now a usage error
        Cli.Result transactional = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "-X",
                "transactional.id=mine", input.toString());
        assertEquals(ExitStatus.USAGE, transactional.status(), transactional.err());
        assertTrue(transactional.err().contains("-X transactional.id is not for sluice produce to take: --exactly-once "
                + "sends in transactions of its own"), transactional.err());

        Cli.Result allowed = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "-X", "acks=1",
                "--allow-loss", input.toString());
        assertEquals(ExitStatus.OK, allowed.status(), allowed.err());
        assertTrue(allowed.err().contains("allowed by --allow-loss: acks=1 (only the leader has a record"),
                allowed.err());

        Cli.Result stdin = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once");
        assertEquals(ExitStatus.USAGE, stdin.status(), stdin.err());
        assertTrue(stdin.err().contains("--exactly-once needs files: standard input cannot be read again"),
                stdin.err());

        // ignored without a word before: a user who set it believed the run commits
        Cli.Result interval = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--commit-interval", "5s",
                input.toString());
        assertEquals(ExitStatus.USAGE, interval.status(), interval.err());
        assertTrue(interval.err().contains("--commit-interval is how often an --exactly-once import commits"),
                interval.err());
        // a transaction open past transaction.timeout.ms (60 s) is aborted by the cluster, and every rerun's with it
        Cli.Result longInterval = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
                "--commit-interval", "40s", input.toString());
        assertEquals(ExitStatus.USAGE, longInterval.status(), longInterval.err());
        assertTrue(longInterval.err().contains("a --commit-interval of 40 s keeps each transaction open that long, "
                + "and the cluster aborts one open past the producer's transaction.timeout.ms: give less than 30 s, "
                + "or raise -X transaction.timeout.ms (now 60000 ms;"), longInterval.err());
        Cli.Result slowRate = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
                "--rate", "0.01", input.toString());
        assertEquals(ExitStatus.USAGE, slowRate.status(), slowRate.err());
        assertTrue(slowRate.err().contains("--rate 0.01 sends a record every 1 min 40 s, and each transaction "
                + "stays open until the next record"), slowRate.err());
        Cli.Result badTimeout = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
                "-X", "transaction.timeout.ms=soon", input.toString());
        assertEquals(ExitStatus.USAGE, badTimeout.status(), badTimeout.err());
        assertTrue(badTimeout.err().contains("-X transaction.timeout.ms must be a number of milliseconds, not 'soon'"),
                badTimeout.err());
        Cli.Result noSchema = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--format", "json",
                "--schema", "no-such.avsc", input.toString());
        assertEquals(ExitStatus.USAGE, noSchema.status(), noSchema.err());
        assertTrue(noSchema.err().contains("there is no schema file no-such.avsc"), noSchema.err());

        // it won over -b without a word: the records went to a cluster the command line did not name
        Cli.Result twice = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "-X",
                "bootstrap.servers=127.0.0.1:1", input.toString());
        assertEquals(ExitStatus.USAGE, twice.status(), twice.err());
        assertTrue(twice.err().contains("-X bootstrap.servers names the brokers a second time: give them once, with -b"),
                twice.err());

        // "cannot open the journal /x/j: /x/j" before: the reason was the path again
        Path noFolder = input.getParent().resolve("no-such-folder").resolve("journal.tsv");
        Cli.Result journalNowhere = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--journal",
                noFolder.toString(), input.toString());
        assertEquals(ExitStatus.FAILURE, journalNowhere.status(), journalNowhere.err());
        assertTrue(journalNowhere.err().contains("cannot open the journal " + noFolder + ": its folder "
                + noFolder.toAbsolutePath().getParent() + " does not exist"), journalNowhere.err());

        String nobody = "127.0.0.1:" + Ports.free();
        Cli.Result unreachable = Cli.run("produce", "-b", nobody, "-t", topic, input.toString());
        assertEquals(ExitStatus.FAILURE, unreachable.status(), unreachable.err());
        assertTrue(unreachable.err().contains("sluice produce: no broker answers: " + nobody + ": nothing listens there"),
                "one sentence from the probe, before any client retries: " + unreachable.err());
    }

    @Test
    void valuesAreCheckedAgainstAnAvroSchemaWrittenAsConfluentFramedAvroAndABadFieldFailsItsLine() throws Exception {
        String topic = Names.unique("produce-avro");
        kafka.createTopic(topic, 1);
        Path dir = TestDirs.newDir("produce-avro");
        Path schemaFile = write(dir.resolve("order.avsc"), null, """
                {"type": "record", "name": "Order", "fields": [
                  {"name": "id", "type": "string"},
                  {"name": "amount", "type": "double"},
                  {"name": "note", "type": ["null", "string"], "default": null},
                  {"name": "tags", "type": {"type": "array", "items": "string"}, "default": []}
                ]}""");
        Path input = write(dir.resolve("orders.jsonl"), null, String.join("\n",
                "{\"id\":\"o1\",\"amount\":12.5,\"tags\":[\"a\"]}",
                "{\"id\":\"o2\",\"amount\":\"12\"}",
                "{\"id\":\"o3\"}",
                "{\"id\":\"o4\",\"amount\":1,\"colour\":\"red\"}",
                "{\"id\":\"o5\",\"amount\":2,\"note\":\"hi\",\"tags\":[7]}",
                "{\"id\":\"o6\",\"amount\":2,\"note\":\"hi\"}",
                ""));
        Cli.Result run = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--format", "json",
                "--key-field", "id", "--schema", schemaFile.toString(), "--confluent-framing", "--schema-id", "7",
                input.toString());
        assertEquals(ExitStatus.SOME_RECORDS_FAILED, run.status(), run.err());
        assertEquals(new ProducedRecords.Counts(6, 2, 4, 0), ProducedRecords.counts(run.err()));
        assertTrue(run.err().contains(input + ":2: malformed line: field \"amount\": expected a double, found a "
                + "string"), run.err());
        assertTrue(run.err().contains(input + ":3: malformed line: field \"amount\": missing, and the schema gives "
                + "no default"), run.err());
        assertTrue(run.err().contains(input + ":4: malformed line: field \"colour\": not in the schema"), run.err());
        assertTrue(run.err().contains(input + ":5: malformed line: field \"tags[0]\": expected a string, found the "
                + "number 7"), run.err());

        Schema schema = new Schema.Parser().parse(schemaFile.toFile());
        List<String> decoded = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : ProducedRecords.read(kafka, topic)) {
            byte[] v = r.value();
            assertEquals(List.of(0, 0, 0, 0, 7), List.of((int) v[0], (int) v[1], (int) v[2], (int) v[3], (int) v[4]),
                    "Confluent framing: magic byte 0, then schema ID 7");
            GenericRecord order = new GenericDatumReader<GenericRecord>(schema).read(null,
                    DecoderFactory.get().binaryDecoder(v, 5, v.length - 5, null));
            decoded.add(text(r.key()) + " " + order);
        }
        assertEquals(List.of("o1 {\"id\": \"o1\", \"amount\": 12.5, \"note\": null, \"tags\": [\"a\"]}",
                "o6 {\"id\": \"o6\", \"amount\": 2.0, \"note\": \"hi\", \"tags\": []}"), decoded);
    }

    @Test
    void wrongCredentialsAreOneSentenceNotEveryLineFailing() throws Exception {
        KafkaCluster secure = SecureKafka.cluster();
        Path input = write(TestDirs.newDir("produce-login").resolve("in.txt"), null, "a\n");
        List<String> args = new ArrayList<>(List.of("produce", "-b", secure.bootstrapServers(Listener.SASL), "-t",
                "any-topic"));
        Map<String, Object> login = new HashMap<>(secure.tls().clientProperties());
        login.put("security.protocol", "SASL_SSL");
        login.putAll(KafkaCluster.scramClientProperties(secure.scramUser(), "not-the-password"));
        login.forEach((k, v) -> args.addAll(List.of("-X", k + "=" + v)));
        args.add(input.toString());
        Cli.Result refused = Cli.run(args.toArray(String[]::new));
        assertEquals(ExitStatus.FAILURE, refused.status(), refused.err());
        assertTrue(refused.err().contains("refused the login: Authentication failed"), refused.err());
        assertTrue(!refused.err().contains("not-the-password"), "the password is never printed: " + refused.err());
    }

    @Test
    void aCompleteExactlyOnceImportRerunSendsNothingEvenWhenItsFilesChangedSince() throws Exception {
        String topic = Names.unique("produce-eo");
        kafka.createTopic(topic, 2);
        Path dir = TestDirs.newDir("produce-eo");
        List<String> a = ProducedRecords.writeLines(dir.resolve("a.txt"), "a", 500);
        List<String> b = ProducedRecords.writeLines(dir.resolve("b.txt"), "b", 300);
        String[] command = {"produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
            "--commit-interval", "50ms", dir.resolve("a.txt").toString(), dir.resolve("b.txt").toString()};

        Cli.Result first = Cli.run(command);
        assertEquals(ExitStatus.OK, first.status(), first.err());
        assertEquals(new ProducedRecords.Counts(800, 800, 0, 0), ProducedRecords.counts(first.err()));
        assertTrue(first.err().contains("is complete: a rerun sends nothing"), first.err());

        Cli.Result again = Cli.run(command);
        assertEquals(ExitStatus.OK, again.status(), again.err());
        assertEquals(new ProducedRecords.Counts(0, 0, 0, 0), ProducedRecords.counts(again.err()));
        assertTrue(again.err().contains("is complete: a rerun sends nothing"), again.err());

        // complete means done: the files are not compared again (a new --name imports them again)
        Files.writeString(dir.resolve("b.txt"), "b-changed\n", StandardOpenOption.APPEND);
        Cli.Result changed = Cli.run(command);
        // exit 1: `sluice produce b.txt && mv b.txt done/` must not move lines it did not send (a review)
        assertEquals(ExitStatus.FAILURE, changed.status(), changed.err());
        assertEquals(new ProducedRecords.Counts(0, 0, 0, 0), ProducedRecords.counts(changed.err()));
        // but not without a word (a new user's run: appended lines were left out silently)
        assertTrue(changed.err().contains(dir.resolve("b.txt") + " changed since import ") && changed.err().contains(
                "what it gained is not sent, since a complete import is done") && changed.err().contains("tail -c +"),
                changed.err());

        Map<String, Integer> counted = new HashMap<>();
        ProducedRecords.values(kafka, topic).forEach(v -> counted.merge(v, 1, Integer::sum));
        assertEquals(800, counted.size());
        assertTrue(counted.values().stream().allMatch(n -> n == 1), "every line once");
        assertTrue(counted.keySet().containsAll(a) && counted.keySet().containsAll(b));
    }

    /**
     * The same command over a folder that gained files is the same import: it sends the new files only (it was named
     * after the list of files, so a file added made it another import, which sent everything again: a new user's
     * run counted 5,274 duplicates). A file added before those done is refused, and nothing is sent.
     */
    @Test
    void anExactlyOnceImportOfAFolderGoesOnWithTheFilesAddedToItAndRefusesOneAddedBeforeThoseDone() throws Exception {
        String topic = Names.unique("produce-eo-folder");
        kafka.createTopic(topic, 1);
        Path dir = Files.createDirectory(TestDirs.newDir("produce-eo-folder").resolve("in"));
        List<String> lines = new ArrayList<>(ProducedRecords.writeLines(dir.resolve("b.txt"), "b", 200));
        String[] command = {"produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
            dir.toString()};
        Cli.Result first = Cli.run(command);
        assertEquals(ExitStatus.OK, first.status(), first.err());

        lines.addAll(ProducedRecords.writeLines(dir.resolve("c.txt"), "c", 100));
        Cli.Result grown = Cli.run(command);
        assertEquals(ExitStatus.OK, grown.status(), grown.err());
        assertEquals(new ProducedRecords.Counts(100, 100, 0, 0), ProducedRecords.counts(grown.err()));
        assertEquals(lines, ProducedRecords.values(kafka, topic), "every line once, in order");

        ProducedRecords.writeLines(dir.resolve("a.txt"), "a", 10);
        Cli.Result before = Cli.run(command);
        assertEquals(ExitStatus.FAILURE, before.status(), before.err());
        assertTrue(before.err().contains("a file was added before the one being read, or one done was removed or "
                + "renamed"), before.err());
        assertEquals(lines, ProducedRecords.values(kafka, topic), "nothing sent");
    }

    /**
     * The last file of a complete import grew, then a file was added: going on with the new file would leave the grown
     * lines out, so it is refused, also after a rerun that found the import complete and sent nothing (that rerun
     * committed the position again without the last file's identity, and the next one left a line out without a
     * word: a new user's run).
     */
    @Test
    void anExactlyOnceImportWhoseLastFileGrewIsRefusedAlsoAfterARerunThatSentNothing() throws Exception {
        String topic = Names.unique("produce-eo-grew");
        kafka.createTopic(topic, 1);
        Path dir = Files.createDirectory(TestDirs.newDir("produce-eo-grew").resolve("in"));
        List<String> lines = ProducedRecords.writeLines(dir.resolve("a.txt"), "a", 2);
        String[] command = {"produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
            dir.toString()};
        assertEquals(ExitStatus.OK, Cli.run(command).status());
        Cli.Result nothing = Cli.run(command);
        assertEquals(ExitStatus.OK, nothing.status(), nothing.err());
        assertEquals(new ProducedRecords.Counts(0, 0, 0, 0), ProducedRecords.counts(nothing.err()));

        Files.writeString(dir.resolve("a.txt"), "a-grown\n", StandardOpenOption.APPEND);
        ProducedRecords.writeLines(dir.resolve("b.txt"), "b", 1);
        Cli.Result grown = Cli.run(command);
        assertEquals(ExitStatus.FAILURE, grown.status(), grown.err());
        assertTrue(grown.err().contains("a.txt changed since import ") && grown.err().contains("going on with those "
                + "would leave what it gained out"), grown.err());
        assertEquals(lines, TestRecords.values(TestRecords.readAllDecided(kafka.clientProperties(Listener.PLAINTEXT),
                topic, java.time.Duration.ofSeconds(30))), "nothing sent");
    }

    /**
     * An unquoted pattern reaches the command as the files the shell found: once the folder holds one more, the same
     * command line has one more argument. It is the same import, and goes on with the new file only (before: a new
     * import, every line of the first files sent again).
     */
    @Test
    void anExactlyOnceImportOfFilesTheShellExpandedGoesOnWithTheFilesThatFollowThem() throws Exception {
        String topic = Names.unique("produce-eo-expanded");
        kafka.createTopic(topic, 1);
        Path dir = Files.createDirectory(TestDirs.newDir("produce-eo-expanded").resolve("in"));
        List<String> lines = new ArrayList<>(ProducedRecords.writeLines(dir.resolve("day-1.txt"), "a", 100));
        lines.addAll(ProducedRecords.writeLines(dir.resolve("day-2.txt"), "b", 50));
        Cli.Result first = produceExactlyOnce(topic, dir.resolve("day-1.txt"), dir.resolve("day-2.txt"));
        assertEquals(ExitStatus.OK, first.status(), first.err());

        lines.addAll(ProducedRecords.writeLines(dir.resolve("day-3.txt"), "c", 30));
        Cli.Result grown = produceExactlyOnce(topic, dir.resolve("day-1.txt"), dir.resolve("day-2.txt"),
                dir.resolve("day-3.txt"));
        assertEquals(ExitStatus.OK, grown.status(), grown.err());
        assertTrue(grown.err().contains("was begun with the first 2 of these 3 arguments"), grown.err());
        assertEquals(new ProducedRecords.Counts(30, 30, 0, 0), ProducedRecords.counts(grown.err()));
        assertEquals(lines, ProducedRecords.values(kafka, topic), "every line once, in order");
    }

    /**
     * A file that sorts before those an unquoted pattern matched at the first run makes the rerun's arguments begin
     * with it: no import has their name, or that of their leading part. Beginning a new one sent every line again; now
     * the import that sent them is found by its files, and the run is refused in words, with nothing sent.
     */
    @Test
    void anImportOfFilesAnotherImportAlreadySentIsRefusedInWords() throws Exception {
        String topic = Names.unique("produce-eo-before");
        kafka.createTopic(topic, 1);
        Path dir = Files.createDirectory(TestDirs.newDir("produce-eo-before").resolve("in"));
        List<String> lines = new ArrayList<>(ProducedRecords.writeLines(dir.resolve("day-2.txt"), "b", 40));
        lines.addAll(ProducedRecords.writeLines(dir.resolve("day-3.txt"), "c", 30));
        Cli.Result first = produceExactlyOnce(topic, dir.resolve("day-2.txt"), dir.resolve("day-3.txt"));
        assertEquals(ExitStatus.OK, first.status(), first.err());

        List<String> early = ProducedRecords.writeLines(dir.resolve("day-1.txt"), "a", 20);
        Cli.Result expanded = produceExactlyOnce(topic, dir.resolve("day-1.txt"), dir.resolve("day-2.txt"),
                dir.resolve("day-3.txt"));
        assertEquals(ExitStatus.FAILURE, expanded.status(), expanded.err());
        assertTrue(expanded.err().contains("already sent " + dir.resolve("day-2.txt") + " to "
                + dir.resolve("day-3.txt") + " (files 2 to 3 here): a new import of these 3 files would send them "
                + "again"), expanded.err());
        assertEquals(lines, ProducedRecords.values(kafka, topic), "nothing sent");

        Cli.Result alone = produceExactlyOnce(topic, dir.resolve("day-1.txt"));
        assertEquals(ExitStatus.OK, alone.status(), alone.err());
        lines.addAll(early);
        assertEquals(lines, ProducedRecords.values(kafka, topic), "the new file once, as an import of its own");

        // some of the files it sent among others (a rotated folder: day-2 gone, day-4 added), as an unquoted pattern
        // passes them: a new import sent day-3 again (a review)
        ProducedRecords.writeLines(dir.resolve("day-4.txt"), "d", 10);
        Cli.Result rotated = produceExactlyOnce(topic, dir.resolve("day-3.txt"), dir.resolve("day-4.txt"));
        assertEquals(ExitStatus.FAILURE, rotated.status(), rotated.err());
        assertTrue(rotated.err().contains("already sent " + dir.resolve("day-3.txt") + " (file 1 here): a new import of "
                + "these 2 files would send it again"), rotated.err());
        assertEquals(lines, ProducedRecords.values(kafka, topic), "nothing sent");
    }

    /** {@code sluice produce --exactly-once} of {@code files} as the shell hands them over: one argument each. */
    private Cli.Result produceExactlyOnce(String topic, Path... files) {
        List<String> args = new ArrayList<>(List.of("produce", "-b", kafka.bootstrapServers(), "-t", topic,
                "--exactly-once"));
        for (Path file : files) {
            args.add(file.toString());
        }
        return Cli.run(args.toArray(String[]::new));
    }

    /**
     * An import an earlier version began under the default name of that time (its list of files) goes on under that
     * name when the same command runs again on the same files: under the name of its arguments it would begin again,
     * sending every committed line a second time.
     */
    @Test
    void anImportBegunUnderTheEarlierDefaultNameGoesOnUnderIt() throws Exception {
        String topic = Names.unique("produce-eo-legacy");
        kafka.createTopic(topic, 1);
        Path dir = Files.createDirectory(TestDirs.newDir("produce-eo-legacy").resolve("in"));
        List<String> lines = ProducedRecords.writeLines(dir.resolve("b.txt"), "b", 100);
        String earlier = "produce-" + topic + "-" + ImportPosition.listHash(Inputs.expand(List.of(dir.toString())));
        Cli.Result first = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once", "--name",
                earlier, dir.toString());
        assertEquals(ExitStatus.OK, first.status(), first.err());

        Cli.Result upgraded = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
                dir.toString());
        assertEquals(ExitStatus.OK, upgraded.status(), upgraded.err());
        assertTrue(upgraded.err().contains("import " + earlier + " was begun by an earlier version under this name"),
                upgraded.err());
        assertEquals(new ProducedRecords.Counts(0, 0, 0, 0), ProducedRecords.counts(upgraded.err()),
                "complete under its earlier name: nothing sent again");
        assertEquals(lines, ProducedRecords.values(kafka, topic), "every line once, in order");
    }

    /**
     * A second run of the same exactly-once import, started while the first runs, takes it over: its producer fences
     * the first's, and the first says so, instead of advising a rerun (a third run) as it did; every line lands once.
     */
    @Test
    void anExactlyOnceImportTakenOverByASecondRunSaysSoAndEveryLineLandsOnce() throws Exception {
        String topic = Names.unique("produce-eo-twice");
        kafka.createTopic(topic, 1);
        Path file = TestDirs.newDir("produce-eo-twice").resolve("in.txt");
        List<String> lines = ProducedRecords.writeLines(file, "t", 1_000);
        String[] slow = {"produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once", "--name",
            "twice", "--commit-interval", "50ms", "--rate", "300", file.toString()};
        java.util.concurrent.CompletableFuture<Cli.Result> first =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> Cli.run(slow));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ProducedRecords.values(kafka, topic).isEmpty()) { // the first run committed something
            assertTrue(System.nanoTime() < deadline, "the first run committed nothing within 30 s");
            Thread.sleep(20);
        }
        Cli.Result second = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
                "--name", "twice", "--commit-interval", "50ms", file.toString());
        assertEquals(ExitStatus.OK, second.status(), second.err());
        Cli.Result taken = first.get(60, TimeUnit.SECONDS);
        // fenced, or (when the takeover lands between two of its calls) its transaction ended by the cluster, or
        // (when the takeover's abort crosses its commit) its commit answered with an unexplained error: CI met all three
        assertTrue(taken.err().contains("another run of import twice took it over (its producer fenced this one's), "
                + "or the cluster ended a transaction left open too long")
                || taken.err().contains("import twice's transaction was ended from outside, as when another run of "
                + "import twice takes it over")
                || taken.err().contains("import twice's transaction ended in an error at the cluster, as when another "
                + "run of import twice takes it over while this one commits"), taken.err());

        Map<String, Integer> counted = new HashMap<>();
        ProducedRecords.values(kafka, topic).forEach(v -> counted.merge(v, 1, Integer::sum));
        assertEquals(new TreeSet<>(lines), new TreeSet<>(counted.keySet()));
        assertTrue(counted.values().stream().allMatch(n -> n == 1), "every line once");
    }

    /**
     * An import stopped inside a file (here by a signal) goes on from its committed byte offset only in the same file:
     * the file edited in its committed part, or cut short, is refused in words with exit status 1 and nothing is
     * sent; restored, it goes on. (A record too large for the topic stopped it here before: such a record now fails
     * alone, before it is sent.)
     */
    @Test
    void anExactlyOnceImportStoppedInAFileRefusesToGoOnWhenThatFileChangedAndSendsNothing() throws Exception {
        String topic = Names.unique("produce-eo-changed");
        kafka.createTopic(topic, 1);
        Path dir = TestDirs.newDir("produce-eo-changed");
        Path file = dir.resolve("in.txt");
        List<String> lines = ProducedRecords.writeLines(file, "c", 300);
        byte[] original = Files.readAllBytes(file);
        String[] command = {"produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
            "--commit-interval", "50ms", file.toString()};

        // at 100 lines a second the file takes 3 s: stopped once 50 lines are committed, it is inside the file
        List<String> paced = new ArrayList<>(List.of(command));
        paced.addAll(List.of("--rate", "100"));
        String stopped;
        try (io.sluice.cli.CliChild child = io.sluice.cli.CliChild.start(dir, paced.toArray(String[]::new))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (committedEnd(topic) < 50) {
                assertTrue(System.nanoTime() < deadline, "50 lines committed within 60 s: " + child.output());
                Thread.sleep(20);
            }
            child.terminate();
            assertEquals(ExitStatus.TERMINATED, child.exitStatus(Duration.ofSeconds(60)), child.output());
            stopped = child.output();
        }
        Matcher at = Pattern.compile("is committed up to " + Pattern.quote(file.toString())
                + ":(\\d+) \\(byte (\\d+)\\), the next line to send; a rerun of the same command goes on from there")
                .matcher(stopped);
        assertTrue(at.find(), stopped);
        int line = Integer.parseInt(at.group(1));
        long offset = Long.parseLong(at.group(2));
        assertTrue(line > 1 && line < 300, "inside the file: " + stopped);
        List<String> committed = lines.subList(0, line - 1);
        assertEquals(committed, TestRecords.values(TestRecords.readAllDecided(kafka.clientProperties(
                Listener.PLAINTEXT), topic, Duration.ofSeconds(30))), "the summary says what was committed");

        String edited = new String(original, StandardCharsets.UTF_8).replaceFirst("c-0", "C-0"); // same size
        Files.writeString(file, edited, StandardCharsets.UTF_8);
        assertRefused(command, file, line, offset, topic, committed);
        Files.write(file, Arrays.copyOf(original, (int) offset)); // the committed part, intact
        assertRefused(command, file, line, offset, topic, committed);

        Files.write(file, original);
        Cli.Result resumed = Cli.run(command);
        assertEquals(ExitStatus.OK, resumed.status(), resumed.err());
        assertEquals(new ProducedRecords.Counts(300 - (line - 1), 300 - (line - 1), 0, 0),
                ProducedRecords.counts(resumed.err()));
        assertEquals(lines, ProducedRecords.values(kafka, topic), "every line once, in order");
    }

    private void assertRefused(String[] command, Path file, int line, long offset, String topic,
            List<String> committed) {
        Cli.Result refused = Cli.run(command);
        assertEquals(ExitStatus.FAILURE, refused.status(), refused.err());
        assertTrue(refused.err().contains(file + " is not the file that import produce-" + topic + "-"), refused.err());
        assertTrue(refused.err().contains("now): resuming at line " + line + " (byte " + offset + ") would skip or "
                + "repeat lines. Restore the file, or give a new --name to import it from the start"), refused.err());
        assertTrue(!refused.err().contains("records read"), "refused before reading: " + refused.err());
        assertEquals(committed, ProducedRecords.values(kafka, topic), "nothing sent");
    }

    /** The last stable offset of the topic's partition 0: what a read_committed reader sees of it. */
    private long committedEnd(String topic) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        return kafka.admin().listOffsets(Map.of(tp, org.apache.kafka.clients.admin.OffsetSpec.latest()),
                new org.apache.kafka.clients.admin.ListOffsetsOptions(org.apache.kafka.common.IsolationLevel
                        .READ_COMMITTED)).partitionResult(tp).get(30, TimeUnit.SECONDS).offset();
    }

    private static final Compressor GZIP = GZIPOutputStream::new;
    private static final Compressor ZSTD = ZstdOutputStream::new;
    private static final Compressor LZ4 = LZ4FrameOutputStream::new;

    private interface Compressor {
        OutputStream wrap(OutputStream out) throws java.io.IOException;
    }

    private static Path write(Path file, Compressor compressor, String text) throws Exception {
        try (OutputStream out = compressor == null ? Files.newOutputStream(file)
                : compressor.wrap(Files.newOutputStream(file))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
