package io.sluice.producer.input;

/** Turns one input line into a record, or says why it cannot. Implementations are immutable. */
public interface RecordParser {

    InputRecord parse(InputLine line) throws BadInputException;
}
