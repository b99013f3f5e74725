package io.sluice.merge.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.merge.order.MergeKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateCodecTest {

    private final StateCodec codec = new StateCodec(List.of("west=clicks", "east=clicks"), "timestamp");

    @Test
    void aStateReadsBackAsWritten() {
        MergeState state = new MergeState(new long[] {12, 40}, new MergeKey(1_764_072_000_000L, 1, 39), 51);
        String text = codec.encode(state);
        assertTrue(text.startsWith("merge1 cfg=") && text.endsWith(" pos=12,40 last=1764072000000/1/39"), text);
        assertEquals(state, codec.decode(text, 51, "here"));
        MergeState initial = MergeState.initial(new long[] {0, 7});
        assertEquals(initial, codec.decode(codec.encode(initial), 0, "here"));
    }

    @Test
    void aStateWrittenUnderOtherInputsOrAnotherOrderIsRefusedInWords() {
        String text = new StateCodec(List.of("east=clicks", "west=clicks"), "timestamp")
                .encode(MergeState.initial(new long[] {1, 2}));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> codec.decode(text, 0, "clicks-0"));
        assertTrue(e.getMessage().startsWith("clicks-0 was committed by this merge under other inputs or another order "
                + "key"), e.getMessage());
        String other = new StateCodec(List.of("west=clicks", "east=clicks"), "value.at")
                .encode(MergeState.initial(new long[] {1, 2}));
        assertThrows(IllegalStateException.class, () -> codec.decode(other, 0, "clicks-0"));
        assertThrows(IllegalStateException.class, () -> codec.decode("12 some other tool", 0, "clicks-0"));
    }

    @Test
    void theProgressOfAnEarlierOutputTopicOfTheSameNameIsRefused() {
        String text = codec.forOutput("AAAAAAAAAAAAAAAAAAAAAA").encode(MergeState.initial(new long[] {1, 2}));
        assertEquals(MergeState.initial(new long[] {1, 2}), codec.forOutput("AAAAAAAAAAAAAAAAAAAAAA")
                .decode(text, 0, "here"));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> codec.forOutput("BBBBBBBBBBBBBBBBBBBBBB").decode(text, 0, "clicks-0"));
        assertTrue(e.getMessage().contains("belongs to an earlier output topic of the same name"), e.getMessage());
        assertEquals(MergeState.initial(new long[] {1, 2}), codec.decode(text, 0, "here"), "the audit reads it");
    }

    /**
     * An input topic deleted and created again (or an input pointed at another cluster's topic of the same name): the
     * merge sought to the committed positions in the new topic and went on, skipping everything below (a review).
     */
    @Test
    void theProgressOfOtherInputTopicsOfTheSameNamesIsRefused() {
        StateCodec before = codec.forOutput("AAAAAAAAAAAAAAAAAAAAAA").forInputs(List.of("west-id", "east-id"));
        String text = before.encode(MergeState.initial(new long[] {1, 2}));
        assertTrue(text.contains(" in="), text);
        assertEquals(MergeState.initial(new long[] {1, 2}), before.decode(text, 0, "here"));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> codec.forOutput("AAAAAAAAAAAAAAAAAAAAAA").forInputs(List.of("west-id", "east-id-recreated"))
                        .decode(text, 0, "clicks-0"));
        assertTrue(e.getMessage().startsWith("clicks-0 was committed while the merge read other input topics of the "
                + "same names"), e.getMessage());
        assertEquals(MergeState.initial(new long[] {1, 2}), codec.forInputs(List.of("west-id", ""))
                .decode(text, 0, "here"), "an ID a broker does not give: not checked");
        String older = codec.encode(MergeState.initial(new long[] {1, 2}));
        assertEquals(MergeState.initial(new long[] {1, 2}), before.decode(older, 0, "here"),
                "a state of an earlier version, without the inputs' hash, is read (the next commit writes it)");
    }

    @Test
    void theLongestStateIsWithinTheBrokersLimitForManyInputs() {
        List<String> hundred = java.util.stream.IntStream.range(0, 100).mapToObj(i -> "dc" + i + "=t").toList();
        assertTrue(new StateCodec(hundred, "timestamp").longest() <= StateCodec.METADATA_LIMIT);
        List<String> many = java.util.stream.IntStream.range(0, 300).mapToObj(i -> "dc" + i + "=t").toList();
        assertTrue(new StateCodec(many, "timestamp").longest() > StateCodec.METADATA_LIMIT);
    }
}
