package dev.spanprofile.autoconfigure.brave;

import brave.Tracing;
import brave.propagation.CurrentTraceContext;
import brave.propagation.ThreadLocalCurrentTraceContext;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that builds Brave's current trace context itself: spanprofile's scope
 * decorator is then in it only if the application put it there, and a WARN line at
 * startup says when it did not.
 */
@ExtendWith(OutputCaptureExtension.class)
class ScopeDecoratorMissingWarningTests {

	private static final String WARNING = "was built without the spanProfileScopeDecorator bean";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SpanProfileAutoConfiguration.class, SpanProfileBraveAutoConfiguration.class));

	@Test
	void warnsOnceWhenTheApplicationsCurrentTraceContextLacksTheDecorator(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(OwnCurrentTraceContext.class)
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).containsOnlyOnce(WARNING)
			.contains("(brave.propagation.ThreadLocalCurrentTraceContext)")
			.contains("addScopeDecorator");
	}

	@Test
	void staysQuietWhenTheApplicationAddsTheDecoratorBeans(CapturedOutput output) {
		this.contextRunner.withUserConfiguration(DecoratedCurrentTraceContext.class)
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain(WARNING);
	}

	@Test
	void staysQuietWithoutBraveTracing(CapturedOutput output) {
		this.contextRunner
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(ScopeDecoratorMissingWarning.class));
		assertThat(output).doesNotContain(WARNING);
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnCurrentTraceContext {

		@Bean
		CurrentTraceContext currentTraceContext() {
			return ThreadLocalCurrentTraceContext.newBuilder().build();
		}

		@Bean
		Tracing tracing(CurrentTraceContext currentTraceContext) {
			return Tracing.newBuilder().currentTraceContext(currentTraceContext).build();
		}

	}

	/** The fix the warning names: every decorator bean passed to the builder. */
	@Configuration(proxyBeanMethods = false)
	static class DecoratedCurrentTraceContext {

		@Bean
		CurrentTraceContext currentTraceContext(ObjectProvider<CurrentTraceContext.ScopeDecorator> decorators) {
			CurrentTraceContext.Builder builder = ThreadLocalCurrentTraceContext.newBuilder();
			decorators.orderedStream().forEach(builder::addScopeDecorator);
			return builder.build();
		}

		@Bean
		Tracing tracing(CurrentTraceContext currentTraceContext) {
			return Tracing.newBuilder().currentTraceContext(currentTraceContext).build();
		}

	}

}
