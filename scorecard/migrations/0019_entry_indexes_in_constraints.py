"""An entry's game and seat lose their own indexes: each leads the index of a unique
constraint (game and turn; seat, card and box), which serves every lookup by it. Two
indexes fewer to write on every record. (SQLite rebuilds the table to change a column.)"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorecard', '0018_games_with_others'),
    ]

    operations = [
        migrations.AlterField(
            model_name='entry',
            name='game',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='scorecard.game'),
        ),
        migrations.AlterField(
            model_name='entry',
            name='seat',
            field=models.ForeignKey(db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name='entries', to='scorecard.seat'),
        ),
    ]
