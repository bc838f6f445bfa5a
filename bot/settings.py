"""Settings from the environment and ``.env`` (pydantic-settings). Every field is in ``.env.example``."""

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE = PROJECT_ROOT / "data" / "numbergames.sqlite3"
ENV_FILE_NAME = ".env"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def env_file(cwd: Path | None = None, project: Path = PROJECT_ROOT) -> Path | None:
    """The ``.env`` the bot reads: the working directory's, else the one next to the project, else none."""
    for candidate in ((cwd or Path.cwd()) / ENV_FILE_NAME, project / ENV_FILE_NAME):
        if candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards this process runs: ``ids`` of ``count`` (Discord sends a guild's events to shard
    ``(guild_id >> 22) % count``, and every DM to shard 0)."""

    count: int
    ids: tuple[int, ...]

    def of_guild(self, guild_id: int | None) -> int:
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        """A game of this server is this process's to restore, time and post (no server: shard 0's)."""
        return self.of_guild(guild_id) in self.ids

    @property
    def takes_dms(self) -> bool:
        return 0 in self.ids


class Settings(BaseSettings):
    # utf-8-sig: a .env saved "as UTF-8" by Windows editors starts with a BOM that would hide its first key.
    model_config = SettingsConfigDict(env_file=ENV_FILE_NAME, env_file_encoding="utf-8-sig", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="The bot token from the Developer Portal.")
    database_path: Path = Field(default=DEFAULT_DATABASE, description="SQLite file; its folder is created.")
    database_busy_timeout_ms: int = Field(default=10_000, ge=0)
    database_url: str | None = Field(default=None, description="postgresql://user@host/db: PostgreSQL, not SQLite.")
    dev_guild_id: int | None = Field(default=None, description="Sync commands to this guild only (development).")
    log_level: str = Field(default="INFO", description="The bot's own loggers.")
    log_level_third_party: str = Field(default="INFO", description="The lowest level libraries log at.")
    turn_seconds: int = Field(default=120, ge=15, le=3600, description="Default turn timer.")
    reminder_seconds: int = Field(default=30, ge=0, description="Remind players this long before a deadline.")
    dm_replies_per_window: int = Field(default=3, ge=1, description="DM answers a user gets per window.")
    dm_reply_window_seconds: float = Field(default=5.0, gt=0, description="Beyond that, only the newest.")
    global_requests_per_window: int = Field(default=48, ge=0, description="REST requests the bot sends per"
                                            " window (Discord allows 50/s); 0: no pacing (a rate-limit proxy's).")
    global_window_seconds: float = Field(default=1.0, gt=0, description="That window, in seconds.")
    discord_api_base: str | None = Field(default=None, description="e.g. http://127.0.0.1:8080/api/v10")
    discord_gateway_url: str | None = Field(default=None, description="e.g. ws://127.0.0.1:8080/gateway")
    shard_count: int | None = Field(default=None, ge=1, le=4096, description="Shards in all (unset: no sharding).")
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, description="The shards this process runs, e.g. 0,1 (unset: every shard).")

    shard_resync_seconds: float = Field(default=10.0, gt=0, le=3600,
                                        description="How often a shard process looks for games others changed.")

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _id_list(cls, value: Any) -> Any:
        if isinstance(value, str):  # "0,1", "0 1" or "[0, 1]" from the environment
            parts = value.strip().removeprefix("[").removesuffix("]").replace(",", " ").split()
            if not parts:
                return None
            if not all(p.isdigit() for p in parts):
                raise ValueError(f"must be shard numbers separated by commas, like 0,1, not {value!r}")
            return tuple(int(p) for p in parts)
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all)")
        if not self.shard_ids or len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("SHARD_IDS must name each shard once")
        outside = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if outside:
            raise ValueError(f"SHARD_IDS {outside} are not below SHARD_COUNT {self.shard_count}")
        return self

    @property
    def shards(self) -> Shards | None:
        """The shard set of this process, or None: one unsharded connection."""
        if self.shard_count is None:
            return None
        return Shards(self.shard_count, tuple(sorted(self.shard_ids or range(self.shard_count))))

    @field_validator("log_level", "log_level_third_party")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"must be one of {', '.join(LOG_LEVELS)}, not {value!r}")
        return level

    @field_validator("database_url")
    @classmethod
    def _postgres_only(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None  # an empty DATABASE_URL= in .env means SQLite, as no setting does
        if value.strip().split("://", 1)[0] not in ("postgresql", "postgres"):
            raise ValueError("must start with postgresql:// (leave it unset to use the SQLite file DATABASE_PATH)")
        return value.strip()

    @classmethod
    def load(cls, path: Path | None) -> Self:
        """Settings from the environment and the given ``.env`` (see :func:`env_file`); environment wins."""
        return cls(_env_file=path)  # type: ignore[call-arg]  # pydantic-settings' init-only option
