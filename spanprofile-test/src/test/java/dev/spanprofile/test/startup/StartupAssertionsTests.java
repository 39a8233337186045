package dev.spanprofile.test.startup;

import dev.spanprofile.test.InconclusiveProfileException;
import dev.spanprofile.test.ProfiledTest;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import static dev.spanprofile.test.SpanProfileAssertions.assertThatStartup;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Budgets on the start of the test's own application context: measured own times pass and
 * fail on the clock's figure, sampled ones decide only on enough samples, and a step that
 * is not there is named as missing.
 */
@SpringBootTest(classes = SlowStartApplication.class, properties = "management.otlp.metrics.export.enabled=false")
@ProfiledTest(event = "cpu")
class StartupAssertionsTests {

	private static final String BEAN = "spring.beans.instantiate";

	@Test
	void aSleepingBeansOwnTimeIsMeasured() {
		assertThatStartup().step(BEAN, "sleepyBean").ownMillis().isAtLeast(295).isAtMost(3000);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThatStartup().step(BEAN, "sleepyBean").ownMillis().isAtMost(250))
			.withMessageContaining("own time of startup step spring.beans.instantiate sleepyBean");
		assertThatStartup().step(BEAN, "sleepyBean").cpuMillis().isAtMost(150);
	}

	@Test
	void aBurningBeansCpuAndHotMethodAreSampled() {
		assertThatStartup().step(BEAN, "burningBean").cpuMillis().isAtLeast(150).isAtMost(900);
		assertThatStartup().step(BEAN, "burningBean").cpuShareUnder("recognisablyHotStartup").isAtLeast(0.8);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> assertThatStartup().step(BEAN, "burningBean").cpuMillis().isAtMost(100))
			.withMessageContaining("own CPU of startup step spring.beans.instantiate burningBean")
			.withMessageContaining("samples every");
	}

	@Test
	void tooFewSamplesRefuseToDecide() {
		assertThatExceptionOfType(InconclusiveProfileException.class)
			.isThrownBy(() -> assertThatStartup().step(BEAN, "idleBean").cpuMillis().isAtMost(0.5))
			.withMessageContaining("not enough to tell");
		assertThatExceptionOfType(InconclusiveProfileException.class)
			.isThrownBy(() -> assertThatStartup().step(BEAN, "idleBean").cpuShareUnder("anything").isAtMost(0.5))
			.withMessageContaining("too few");
	}

	@Test
	void aMissingStepIsNamedWithTheSlowestOnes() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> assertThatStartup().step(BEAN, "noSuchBean"))
			.withMessageContaining("No startup step spring.beans.instantiate noSuchBean")
			.withMessageContaining("the slowest steps were: [spring.");
	}

	@Test
	void theWholeStartTakesLongerThanItsSlowBeans() {
		assertThatStartup().whole().ownMillis().isPositive();
		assertThatStartup().whole().durationMillis().isGreaterThan(600.0);
		assertThatStartup().classLoadingMillis().isAtLeast(0);
	}

}
