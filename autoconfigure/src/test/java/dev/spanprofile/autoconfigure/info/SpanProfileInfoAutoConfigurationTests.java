package dev.spanprofile.autoconfigure.info;

import java.util.Map;

import dev.spanprofile.SpanProfiler;
import dev.spanprofile.actuate.info.SpanProfileInfoContributor;
import dev.spanprofile.autoconfigure.SpanProfileAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

class SpanProfileInfoAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(SpanProfileAutoConfiguration.class, SpanProfileInfoAutoConfiguration.class));

	@Test
	@SuppressWarnings("unchecked")
	void shouldContributeEngineAndVersion() {
		this.contextRunner.run((context) -> {
			Info.Builder builder = new Info.Builder();
			context.getBean(SpanProfileInfoContributor.class).contribute(builder);
			Map<String, Object> details = (Map<String, Object>) builder.build().getDetails().get("spanprofile");
			assertThat(details).containsEntry("engine", context.getBean(SpanProfiler.class).status().engine());
			// The build writes the project's version; a placeholder left unfiltered would
			// not match.
			assertThat((String) details.get("version")).matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?");
		});
	}

	@Test
	void shouldNotContributeWhenDisabled() {
		this.contextRunner.withPropertyValues("management.info.spanprofile.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(SpanProfileInfoContributor.class));
	}

	@Test
	void shouldBackOffOnAUserContributor() {
		this.contextRunner.withUserConfiguration(CustomInfoConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(SpanProfileInfoContributor.class);
			assertThat(context.getBean(SpanProfileInfoContributor.class)).isSameAs(context.getBean("custom"));
		});
	}

	@Test
	void shouldNotContributeWithoutTheActuator() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(InfoContributor.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(SpanProfiler.class)
				.doesNotHaveBean(SpanProfileInfoContributor.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class CustomInfoConfiguration {

		@Bean
		SpanProfileInfoContributor custom(SpanProfiler profiler) {
			return new SpanProfileInfoContributor(profiler);
		}

	}

}
