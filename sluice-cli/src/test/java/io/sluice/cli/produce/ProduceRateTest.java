package io.sluice.cli.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * {@code --rate}: the send times the producer stamps on the records (CreateTime) are as far apart as the rate asks,
 * and a rate that would mean "no limit" or nothing at all is refused in words.
 */
class ProduceRateTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void recordsAreSentNoFasterThanTheRate() throws Exception {
        int records = 300;
        int rate = 100;
        String topic = Names.unique("produce-rate");
        kafka.createTopic(topic, 1);
        Path input = TestDirs.newDir("produce-rate").resolve("in.txt");
        List<String> lines = ProducedRecords.writeLines(input, "r", records);

        Cli.Result run = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--rate",
                Integer.toString(rate), input.toString());
        assertEquals(ExitStatus.OK, run.status(), run.err());
        assertEquals(new ProducedRecords.Counts(records, records, 0, 0), ProducedRecords.counts(run.err()));

        List<ConsumerRecord<byte[], byte[]>> sent = ProducedRecords.read(kafka, topic);
        assertEquals(lines, sent.stream().map(r -> new String(r.value(), java.nio.charset.StandardCharsets.UTF_8))
                .toList());
        long spanMillis = sent.get(records - 1).timestamp() - sent.get(0).timestamp();
        // evenly spaced, 300 records at 100/s span 2.99 s; the pacer lets a stalled reader catch up on at most one
        // second, so even after a stall they span 1.99 s (without --rate: a few milliseconds)
        long leastMillis = (records - 1) * 1000L / rate - 1000 - 1; // - 1: timestamps are whole milliseconds
        assertTrue(spanMillis >= leastMillis, "300 records at 100/s were sent within " + spanMillis + " ms");
        for (int i = 0; i < records; i++) {
            // at most one second's rate, plus one second's catch-up, in any second (+ 2: whole milliseconds)
            int j = i;
            while (j < records && sent.get(j).timestamp() - sent.get(i).timestamp() < 1000) {
                j++;
            }
            assertTrue(j - i <= 2 * rate + 2, (j - i) + " records in the second after record " + i);
        }
    }

    @Test
    void aRateThatIsNotAPositiveNumberIsRefusedInWords() throws Exception {
        String topic = Names.unique("produce-rate-bad");
        kafka.createTopic(topic, 1);
        Path input = TestDirs.newDir("produce-rate-bad").resolve("in.txt");
        ProducedRecords.writeLines(input, "r", 3);
        for (String bad : List.of("-5", "0", "NaN", "Infinity")) {
            Cli.Result run = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--rate", bad,
                    input.toString());
            assertEquals(ExitStatus.USAGE, run.status(), bad + ": " + run.err());
            assertTrue(run.err().contains("--rate is records per second, a number more than 0, not " + bad + " "),
                    run.err()); // as typed: "not 0.0" for 0
        }
        Cli.Result words = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", topic, "--rate", "fast",
                input.toString());
        assertEquals(ExitStatus.USAGE, words.status(), words.err());
        assertTrue(words.err().contains("--rate") && words.err().contains("'fast'"), words.err());
        assertEquals(List.of(), ProducedRecords.values(kafka, topic), "nothing sent");
    }

    /** -X settings are checked as a pipeline's properties are: a typo or a refused value is a usage error. */
    @Test
    void aProducerSettingNoProducerKnowsOrAValueItRefusesIsAUsageError() throws Exception {
        Path input = TestDirs.newDir("produce-x").resolve("in.txt");
        ProducedRecords.writeLines(input, "r", 3);
        Cli.Result typo = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", "t", "-X", "lingr.ms=5",
                input.toString());
        assertEquals(ExitStatus.USAGE, typo.status(), typo.err());
        assertTrue(typo.err().contains("-X lingr.ms: not a Kafka producer setting; did you mean 'linger.ms'?"),
                typo.err());
        Cli.Result acks = Cli.run("produce", "-b", kafka.bootstrapServers(), "-t", "t", "-X", "acks=2",
                input.toString());
        assertEquals(ExitStatus.USAGE, acks.status(), acks.err());
        assertTrue(acks.err().contains("-X acks: Invalid value 2 for configuration acks"), acks.err());
    }
}
