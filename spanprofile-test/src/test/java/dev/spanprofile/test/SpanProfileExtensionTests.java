package dev.spanprofile.test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.AssertionFailedError;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.willReturn;
import static org.mockito.Mockito.mock;

/**
 * What a refused budget does to its test: aborted by default, failed when the test class
 * or the system property says so, counted either way and told at the end of the run.
 */
class SpanProfileExtensionTests {

	@ProfiledTest
	static class SkipsRefusals {

		void checkout() {
		}

	}

	@ProfiledTest(inconclusive = Inconclusive.FAIL)
	static class FailsRefusals {

		void checkout() {
		}

	}

	private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

	private final RefusedBudgets tally = new RefusedBudgets(
			new PrintStream(this.printed, true, StandardCharsets.UTF_8));

	private final SpanProfileExtension extension = new SpanProfileExtension();

	private final InconclusiveProfileException refusal = new InconclusiveProfileException(
			"7 samples: too few to tell whether the cpu share under \"x\" is at most 0.10");

	@AfterEach
	void clearProperty() {
		System.clearProperty(Inconclusive.PROPERTY);
	}

	@Test
	void aRefusalAbortsTheTestByDefaultAndIsCounted() {
		this.tally.testRan();
		this.tally.testRan();
		assertThatThrownBy(
				() -> this.extension.handleTestExecutionException(context(SkipsRefusals.class), this.refusal))
			.isSameAs(this.refusal);
		assertThat(this.tally.count()).isEqualTo(1);
		assertThat(this.tally.summary()).isEqualTo("spanprofile-test: 1 of 2 profiled tests refused a budget (too few "
				+ "samples to decide); 1 skipped: SkipsRefusals.checkout. -Dspanprofile.test.inconclusive=fail makes "
				+ "them fail.");
	}

	@Test
	void aRefusalFailsTheTestWhenItsClassSaysSo() {
		this.tally.testRan();
		assertThatThrownBy(
				() -> this.extension.handleTestExecutionException(context(FailsRefusals.class), this.refusal))
			.isInstanceOf(AssertionFailedError.class)
			.isNotInstanceOf(InconclusiveProfileException.class)
			.hasCause(this.refusal)
			.hasMessageStartingWith("The budget refused to decide, which fails the test here")
			.hasMessageEndingWith(this.refusal.getMessage());
		assertThat(this.tally.summary()).contains("1 of 1 profiled tests refused")
			.contains("1 failed: FailsRefusals.checkout")
			.doesNotContain("makes them fail");
	}

	@Test
	void theSystemPropertyDecidesForEveryTest() {
		System.setProperty(Inconclusive.PROPERTY, "FAIL");
		assertThatThrownBy(
				() -> this.extension.handleTestExecutionException(context(SkipsRefusals.class), this.refusal))
			.isInstanceOf(AssertionFailedError.class);
		System.setProperty(Inconclusive.PROPERTY, "skip");
		assertThatThrownBy(
				() -> this.extension.handleTestExecutionException(context(FailsRefusals.class), this.refusal))
			.isSameAs(this.refusal);
		System.setProperty(Inconclusive.PROPERTY, "sometimes");
		assertThatThrownBy(
				() -> this.extension.handleTestExecutionException(context(SkipsRefusals.class), this.refusal))
			.isInstanceOf(IllegalArgumentException.class)
			.hasMessageContaining("-Dspanprofile.test.inconclusive=sometimes is neither skip nor fail");
	}

	@Test
	void otherFailuresPassThroughUncounted() {
		AssertionError failure = new AssertionError("over budget");
		assertThatThrownBy(() -> this.extension.handleTestExecutionException(context(FailsRefusals.class), failure))
			.isSameAs(failure);
		assertThat(this.tally.count()).isZero();
		assertThat(this.tally.summary()).isNull();
	}

	@Test
	void theRunEndsWithOneLineOnlyWhenABudgetWasRefused() {
		// JUnit 6 closes what the root store holds only if it is AutoCloseable (and warns
		// about a CloseableResource alone); JUnit 5.12 only a CloseableResource.
		assertThat(this.tally).isInstanceOf(AutoCloseable.class)
			.isInstanceOf(ExtensionContext.Store.CloseableResource.class);
		this.tally.close();
		assertThat(this.printed.toString(StandardCharsets.UTF_8)).isEmpty();
		for (int i = 0; i < 12; i++) {
			this.tally.testRan();
			this.tally.refused("Budgets.test" + i, Inconclusive.SKIP);
		}
		this.tally.close();
		assertThat(this.printed.toString(StandardCharsets.UTF_8))
			.startsWith("spanprofile-test: 12 of 12 profiled tests refused a budget")
			.contains("Budgets.test9 and 2 more.")
			.doesNotContain("Budgets.test10")
			.endsWith(System.lineSeparator());
	}

	private ExtensionContext context(Class<?> testClass) throws NoSuchMethodException {
		Method method = testClass.getDeclaredMethod("checkout");
		ExtensionContext context = mock(ExtensionContext.class);
		ExtensionContext root = mock(ExtensionContext.class);
		ExtensionContext.Store store = mock(ExtensionContext.Store.class);
		willReturn(testClass).given(context).getRequiredTestClass();
		given(context.getRequiredTestMethod()).willReturn(method);
		given(context.getRoot()).willReturn(root);
		given(root.getStore(any())).willReturn(store);
		given(store.getOrComputeIfAbsent(eq(RefusedBudgets.class), any(), eq(RefusedBudgets.class)))
			.willReturn(this.tally);
		return context;
	}

}
