package io.tickwheel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tickwheel.BadInputRow.Call;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Walks {@code docs/BAD-INPUT.md}: for each row of {@link BadInputTable#all()}, every call with
 * the row's bad input either throws exactly the documented exception, whose message names the
 * argument, and changes nothing ({@link BadInputFixture.State}: no thread made or started, no
 * timer counted, pending counts, executor and future states and builder settings as they were),
 * or is accepted and does what the row promises. Either way, every object of the fixture still
 * works afterwards. {@link BadInputTableTest} checks that the rows cover the API and match the doc.
 */
class BadInputTest {

    static Stream<BadInputRow> rows() {
        return BadInputTable.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void row_eachCall_rejectedWithNothingChangedOrAcceptedAsDocumented(final BadInputRow row) throws Exception {
        assertThat(row.calls()).isNotEmpty();
        try (BadInputFixture fixture = new BadInputFixture()) {
            List<Call> calls = row.calls();
            for (int i = 0; i < calls.size(); i++) {
                Call call = calls.get(i);
                String label = row.key() + " call " + i + ": " + call.signature();
                BadInputFixture.State before = fixture.snapshot();
                if (row.thrown() == null) {
                    Object result = fixture.own(call.action().run(fixture));
                    row.check().verify(fixture, before, result);
                } else {
                    assertThatThrownBy(() -> call.action().run(fixture)).as(label)
                            .isExactlyInstanceOf(row.thrown())
                            .hasMessageFindingMatch(row.message().pattern());
                    before.assertUnchangedBy(fixture.snapshot(), label);
                }
            }
            fixture.assertStillWorks();
        }
    }
}
