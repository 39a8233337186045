package dev.spanprofile.autoconfigure;

import brave.Tracing;
import dev.spanprofile.autoconfigure.otelagent.OtelJavaAgent;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class MissingTracerWarningTests {

	private static final String WARNING = "there is no OpenTelemetry SdkTracerProvider bean";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SpanProfileAutoConfiguration.class));

	@Test
	void warnsWhenNoTracerProviderExists(CapturedOutput output) {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains(WARNING);
	}

	@Test
	void staysQuietWithATracerProvider(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(TracerConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void staysQuietWhenBraveTraces(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(BraveConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void namesTheAgentExtensionWhenTheAgentRunsWithoutIt(CapturedOutput output) {
		// With a tracer provider of the application's own too: the agent's spans stay
		// invisible all the same.
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		beanFactory.registerSingleton("tracerProvider", SdkTracerProvider.builder().build());
		new MissingTracerWarning(beanFactory, new OtelJavaAgent(true, false)).afterSingletonsInstantiated();
		assertThat(output).containsOnlyOnce("-Dotel.javaagent.extensions=/path/to/spanprofile-otel-agent-extension.jar")
			.containsOnlyOnce("WARN")
			.doesNotContain(WARNING);
	}

	@Test
	void staysQuietWhenTheAgentRunsWithTheExtension(CapturedOutput output) {
		// No tracer in the application: the agent's is the one.
		new MissingTracerWarning(new DefaultListableBeanFactory(), new OtelJavaAgent(true, true))
			.afterSingletonsInstantiated();
		assertThat(output).doesNotContain("otel.javaagent.extensions").doesNotContain(WARNING);
	}

	@Test
	void seesNoAgentInThisJvm() {
		assertThat(OtelJavaAgent.detect()).isEqualTo(new OtelJavaAgent(false, false));
	}

	@Test
	void namesBootFourOpenTelemetryStarterWhenItsModuleIsMissing() {
		ClassLoader withoutModule = new FilteredClassLoader(
				"org.springframework.boot.micrometer.tracing.opentelemetry");
		assertThat(MissingTracerWarning.message(withoutModule)).contains("spanprofile-spring-boot-starter,")
			.contains("spring-boot-starter-opentelemetry");
	}

	@Test
	void pointsAtTheSwitchWhenBootFourTracingIsPresent() {
		assertThat(MissingTracerWarning.message(getClass().getClassLoader()))
			.contains("management.opentelemetry.enabled")
			.doesNotContain("spring-boot-starter-opentelemetry");
	}

	@Test
	void namesWhatBootThreeFiveNeedsOnBootThree() {
		ClassLoader bootThree = new FilteredClassLoader("org.springframework.boot.thread");
		assertThat(MissingTracerWarning.message(bootThree)).contains("spanprofile-spring-boot3-starter")
			.contains("micrometer-tracing-bridge-otel")
			.contains("spring-boot-starter-actuator");
	}

	@Configuration(proxyBeanMethods = false)
	static class BraveConfiguration {

		@Bean(destroyMethod = "close")
		Tracing braveTracing() {
			return Tracing.newBuilder().build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class TracerConfiguration {

		@Bean(destroyMethod = "close")
		SdkTracerProvider tracerProvider() {
			return SdkTracerProvider.builder().build();
		}

	}

}
