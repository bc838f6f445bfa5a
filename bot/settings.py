"""Settings from the environment and ``.env`` (pydantic-settings). Every field is in ``.env.example``."""

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE = PROJECT_ROOT / "data" / "numbergames.sqlite3"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = Field(default=None, description="The bot token from the Developer Portal.")
    database_path: Path = Field(default=DEFAULT_DATABASE, description="SQLite file; its folder is created.")
    database_busy_timeout_ms: int = Field(default=10_000, ge=0)
    dev_guild_id: int | None = Field(default=None, description="Sync commands to this guild only (development).")
    log_level: str = Field(default="INFO")
    turn_seconds: int = Field(default=120, ge=15, le=3600, description="Default turn timer.")
    reminder_seconds: int = Field(default=30, ge=0, description="Remind players this long before a deadline.")
    dm_replies_per_window: int = Field(default=3, ge=1, description="DM answers a user gets per window.")
    dm_reply_window_seconds: float = Field(default=5.0, gt=0, description="Beyond that, only the newest.")
    discord_api_base: str | None = Field(default=None, description="e.g. http://127.0.0.1:8080/api/v10")
    discord_gateway_url: str | None = Field(default=None, description="e.g. ws://127.0.0.1:8080/gateway")
